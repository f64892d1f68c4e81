// The one test server of a CLI unit test file: started before its tests (with the file's own
// fixture), closed after them, with the environment each test stubbed restored. It runs
// `gauntlet` in-process against that server and hands out SDK clients and factories for it.
import { afterAll, afterEach, beforeAll, vi } from "vitest";

import { createClient, type Gauntlet } from "@gauntlet/sdk";
import { startTestServer, type TestServer } from "@gauntlet/server/testing";

import type { Factory } from "../src/factory.ts";
import { memoryIO, type IOStreams } from "../src/io.ts";
import { runInProcess, type InProcessResult } from "./in-process.ts";

export interface RunOptions {
  isTTY?: boolean;
  /** The token sent instead of the file's own; null for none. */
  token?: string | null;
  /** Standard input, piped in. */
  input?: string;
}

export interface CliServer {
  readonly server: TestServer;
  readonly url: string;
  /** The token the file's commands run with (what its fixture returned). */
  readonly token: string;
  /** Runs one command line in-process against the server (`true`: on a terminal). */
  gauntlet: (args: readonly string[], options?: RunOptions | boolean) => Promise<InProcessResult>;
  /** An SDK client for the server, with the file's token unless given another. */
  sdk: (token?: string) => Gauntlet;
  /** What a verb's command is built with: memory streams and the file's client. */
  factory: (io?: IOStreams) => Factory;
}

/**
 * Starts a test server for the file (the scheduler off: tests start rounds themselves).
 * `prepare` builds the file's fixture and returns the token its commands run with.
 */
export function useCliServer(prepare: (server: TestServer) => Promise<string>): CliServer {
  let server: TestServer | null = null;
  let token: string | null = null;
  const started = (): TestServer => {
    if (!server) throw new Error("the test server starts in beforeAll; use it inside a test");
    return server;
  };
  const tokenOf = (): string => {
    if (token === null) throw new Error("the fixture is made in beforeAll; use it inside a test");
    return token;
  };
  beforeAll(async () => {
    server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
    token = await prepare(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const sdk = (given = tokenOf()) =>
    createClient({ env: {}, useSavedCredentials: false, baseUrl: started().url, token: given });
  return {
    get server() {
      return started();
    },
    get url() {
      return started().url;
    },
    get token() {
      return tokenOf();
    },
    gauntlet: (args, options = {}) => {
      const o = typeof options === "boolean" ? { isTTY: options } : options;
      return runInProcess(args, {
        url: started().url,
        token: o.token === undefined ? tokenOf() : o.token,
        isTTY: o.isTTY === true,
        ...(o.input === undefined ? {} : { input: o.input }),
      });
    },
    sdk: (given) => sdk(given),
    factory: (io = memoryIO()) => ({ io, client: () => Promise.resolve(sdk()) }),
  };
}
