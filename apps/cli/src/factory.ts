// What a command needs from outside itself: the streams it writes to and an SDK client for the
// command line's --server and token. The executable passes the process's; tests pass memory
// streams and a client for a test server.
import type { Command } from "commander";

import type { Gauntlet } from "@gauntlet/sdk";

import { clientOf, type ClientChoice } from "./context.ts";
import { systemIO, type IOStreams } from "./io.ts";

export interface Factory {
  io: IOStreams;
  /** The client for this command line (its --server, else the environment or last sign-in). */
  client(command: Command, choice?: ClientChoice): Promise<Gauntlet>;
}

/** What one verb's run function is given besides its options. */
export interface Deps {
  io: IOStreams;
  client: Gauntlet;
}

export function systemFactory(io: IOStreams = systemIO()): Factory {
  return { io, client: clientOf };
}

/** The deps for the command being run: the factory's streams and a client for its flags. */
export async function depsOf(factory: Factory, command: Command): Promise<Deps> {
  return { io: factory.io, client: await factory.client(command) };
}
