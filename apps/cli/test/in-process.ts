// Runs `gauntlet` inside the test's own process: the real program and parser, memory streams
// instead of the process's, and an SDK client for a test server instead of the saved sign-in.
import type { Command } from "commander";

import { createClient } from "@gauntlet/sdk";

import { globals, type ClientChoice } from "../src/context.ts";
import { memoryIO } from "../src/io.ts";
import { run } from "../src/run.ts";

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** The server the client talks to (any --server on the command line is parsed, not used). */
  url: string;
  /** The token sent; null for none. */
  token: string | null;
  /** Whether the streams are terminals (colour, tables for people). */
  isTTY?: boolean;
  /** Standard input, piped in; without it, a terminal nobody types into. */
  input?: string;
}

export async function runInProcess(
  args: readonly string[],
  options: InProcessOptions,
): Promise<InProcessResult> {
  const io = memoryIO({
    isTTY: options.isTTY === true,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  const factory = {
    io,
    // A command that asks for no token (sign-in, a reporter's key) gets none, as from the executable.
    // --elevated is honoured as the executable's client does.
    client: (command: Command, choice: ClientChoice = {}) =>
      Promise.resolve(
        createClient({
          env: {},
          useSavedCredentials: false,
          baseUrl: options.url,
          token: choice.anonymous === true ? null : (choice.token ?? options.token),
          elevated: globals(command).elevated === true,
        }),
      ),
  };
  const code = await run(args, factory);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}
