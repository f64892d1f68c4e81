// `gauntlet-server start`: the server, the example coworld and demo league on a first start,
// the embedded runner, the banner, and a shutdown that ends with the server's own last line.
import type { Coworld } from "@gauntlet/core";

import { resolveConfig } from "../config.ts";
import { createDemoLeague, findDemoLeague, type DemoLeague } from "../embedded/demo.ts";
import {
  embeddedWorkDir,
  runnerMain,
  startEmbeddedRunner,
  type EmbeddedRunner,
} from "../embedded/embedded-runner.ts";
import { registerExampleCoworld } from "../embedded/example-coworld.ts";
import { embeddedRunnerToken } from "../embedded/runner-token.ts";
import { startServer } from "../server.ts";
import { bannerLines } from "./banner.ts";
import { commandFor, shellWord, type Env } from "./invocation.ts";
import type { StorageFlags } from "./storage-options.ts";

export interface StartFlags extends StorageFlags {
  port?: number;
  host?: string;
  runner: boolean;
  /** The embedded runner's batch capacity (its own default from the cores when absent). */
  runnerCapacity?: number;
  demo: boolean;
  verbose: boolean;
}

/** The server's level (pino's names): quiet unless asked, at least `info` with --verbose. */
export function startLogLevel(verbose: boolean, env: Env): string {
  const asked = env.GAUNTLET_LOG_LEVEL || env.LOG_LEVEL || undefined;
  if (verbose) return asked === "debug" || asked === "trace" ? asked : "info";
  return asked ?? "warn";
}

/** The embedded runner's level for the server's: the runner knows debug, info, warn, error. */
export function runnerLogLevel(serverLevel: string): "debug" | "info" | "warn" | "error" {
  if (serverLevel === "trace" || serverLevel === "debug") return "debug";
  if (serverLevel === "info") return "info";
  // Errors are always shown, whatever the level (`silent` included).
  return serverLevel === "warn" ? "warn" : "error";
}

/** GAUNTLET_RUNNER_CAPACITY (1 to 64), or undefined for the runner's own default. */
export function runnerCapacityFromEnv(env: Env): number | undefined {
  const raw = env.GAUNTLET_RUNNER_CAPACITY?.trim();
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 64)
    throw new Error(
      `GAUNTLET_RUNNER_CAPACITY must be a whole number from 1 to 64, got ${JSON.stringify(raw)}`,
    );
  return n;
}

/** The storage flags given on the command line, for the commands the banner prints. */
function storageArgs(flags: StorageFlags): string {
  let args = "";
  if (flags.dataDir !== undefined) args += ` --data-dir ${shellWord(flags.dataDir)}`;
  if (flags.databaseUrl !== undefined) {
    // The password stays off the screen: the user puts it back.
    const url = new URL(flags.databaseUrl);
    if (url.password) url.password = "PASSWORD";
    args += ` --database-url ${shellWord(url.toString())}`;
  }
  return args;
}

export async function start(flags: StartFlags, env: Env = process.env): Promise<void> {
  const logLevel = startLogLevel(flags.verbose, env);
  // A bad setting stops the start before anything listens.
  const runnerCapacity = flags.runnerCapacity ?? runnerCapacityFromEnv(env);
  const config = resolveConfig({
    port: flags.port,
    host: flags.host,
    dataDir: flags.dataDir,
    databaseUrl: flags.databaseUrl,
    logLevel,
  });
  const server = await startServer(config);
  let example: Coworld | null = null;
  if (server.firstAdmin) {
    try {
      example = await registerExampleCoworld(server.store, server.context.blobs);
    } catch (error) {
      process.stderr.write(
        `the example coworld could not be registered: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
  let demo: DemoLeague | null = null;
  if (example && flags.demo) {
    try {
      demo = await createDemoLeague(
        server.store.db,
        server.context.blobs,
        server.context.events.bus,
        example,
      );
    } catch (error) {
      process.stderr.write(
        `the demo league could not be created: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
  // A restart says where the demo league is too (it was made on the first start). None is null;
  // a failed lookup is said, as a failed creation is, and the server carries on without it.
  if (!demo && flags.demo) {
    try {
      demo = await findDemoLeague(server.store.db);
    } catch (error) {
      process.stderr.write(
        `the demo league could not be looked up: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
  const lines = bannerLines({
    apiPrefix: config.apiPrefix,
    url: server.url,
    dataUrl: server.dataUrl,
    storage: { engine: server.store.engine, location: server.store.location },
    firstAdmin: server.firstAdmin,
    example,
    demo,
    runner: flags.runner,
    commands: {
      server: commandFor(
        { script: "gauntlet-server", main: process.argv[1] ?? "", silent: true },
        env,
      ),
      runner: commandFor({ script: "gauntlet-runner", main: runnerMain() }, env),
      // The CLI is the workspace's `gauntlet` script when started from the repository, else the
      // `gauntlet` that `pnpm install-cli` installs (the npm package is not published yet).
      cli:
        env.npm_lifecycle_event !== undefined
          ? commandFor({ script: "gauntlet", main: "" }, env)
          : "gauntlet",
    },
    storageArgs: storageArgs(flags),
  });

  let runner: EmbeddedRunner | null = null;
  let stopping = 0;
  const stop = (signal: string) => {
    // pnpm passes the terminal's Ctrl-C on as a second SIGINT: one stop, however many signals.
    // A signal a second or more after the first means "now".
    if (stopping !== 0) {
      if (Date.now() - stopping > 1000) {
        process.stderr.write(`${signal} again: stopping at once.\n`);
        process.exit(130);
      }
      return;
    }
    stopping = Date.now();
    process.stdout.write(`${signal}: shutting down…\n`);
    // The runner first, while the server can still take its reports.
    (runner?.stop() ?? Promise.resolve())
      .then(() => server.close())
      .then(
        () => {
          process.stdout.write("Gauntlet stopped.\n");
          process.exit(0);
        },
        (error: unknown) => {
          process.stderr.write(
            `shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`,
          );
          process.exit(1);
        },
      );
  };
  // Listening before saying that the server runs: a signal with no listener ends the process at once.
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  process.stdout.write(`${lines.join("\n")}\n\n`);
  // Stopped while the runner starts, the server exits; the runner then sees its IPC channel close and stops too.
  if (flags.runner && stopping === 0) {
    runner = await startEmbeddedRunner({
      serverUrl: server.url,
      token: () => embeddedRunnerToken(server.store.db, config.dataDir),
      workDir: embeddedWorkDir(config.dataDir),
      logLevel: runnerLogLevel(logLevel),
      ...(runnerCapacity === undefined ? {} : { capacity: runnerCapacity }),
    });
  }
}
