// @gauntlet/tui: the live terminal UI (`gauntlet watch`). Importing it is cheap: React and Ink
// load when runWatch starts the UI.
export { EXIT_USAGE, runWatch } from "./run-watch.ts";
export type { WatchIO, WatchOptions } from "./run-watch.ts";
