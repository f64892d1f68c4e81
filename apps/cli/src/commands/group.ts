import type { Command } from "commander";

/** Where an action may set the process's exit code without failing (e.g. `watch`). */
export interface RunState {
  exitCode: number;
}

/** One group of commands: adds its commands to the program. Must not import the SDK at the top. */
export interface CommandGroup {
  register(program: Command, state: RunState): void;
}
