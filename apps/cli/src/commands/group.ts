import type { Command } from "commander";

import type { Factory } from "../factory.ts";

/** Where an action may set the process's exit code without failing (e.g. `watch`). */
export interface RunState {
  exitCode: number;
}

/**
 * One group of commands: adds its commands to the program. Must not import the SDK at the top.
 * Its verbs take their streams and client from the factory, never from the process.
 */
export interface CommandGroup {
  register(program: Command, state: RunState, factory: Factory): void;
}
