#!/usr/bin/env node
// The `gauntlet` executable. Only commander and the command tables load here; the SDK and
// everything heavy load inside the action that needs them, so `--help` starts fast.
import { enableCompileCache } from "node:module";

// Node keeps the compiled (and type-stripped) modules on disk: a later start skips parsing
// them, which halves `gauntlet --help` (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
enableCompileCache();

// `pnpm gauntlet` runs at the repository's root; relative paths mean where the user stands.
if (process.env.npm_lifecycle_event === "gauntlet" && process.env.INIT_CWD)
  process.chdir(process.env.INIT_CWD);

const { run } = await import("./run.ts");
const code = await run(process.argv.slice(2));
// Let buffered output reach a pipe before leaving; live connections must not hold the exit.
process.stdout.write("", () => process.exit(code));
