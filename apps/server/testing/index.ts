// Test helpers for the server and for the packages that test against it (SDK, runner, CLI,
// TUI, benchmarks): `import { startTestServer } from "@gauntlet/server/testing"`.
// Production code never imports this folder (the lint rule in eslint.config.js keeps it so).
export * from "./http.ts";
export * from "./patience.ts";
export * from "./start-server.ts";
export * from "./test-entrants.ts";
export * from "./test-league.ts";
export * from "./test-socket.ts";
export * from "./test-store.ts";
export { packDirectory } from "../src/blobs/tarball.ts";
export * from "./test-episode-file.ts";
export * from "./runner-process.ts";
export * from "./tar-bytes.ts";
export * from "./zip-bomb.ts";
export * from "./redis-process.ts";
export * from "./replica-process.ts";
export * from "./browser.ts";
export * from "./demo-league.ts";
export * from "./commissioner-coworld.ts";
