import { preset } from "@gauntlet/vitest-config";

// Each test file starts its own server and runs the CLI as child processes.
export default preset(import.meta.dirname, { testTimeout: 120_000, hookTimeout: 180_000 });
