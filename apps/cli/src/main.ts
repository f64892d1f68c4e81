#!/usr/bin/env node
// The `gauntlet` executable. Only commander and the command tables load here; the SDK and
// everything heavy load inside the action that needs them, so `--help` starts fast.
import { run } from "./run.ts";

const code = await run(process.argv.slice(2));
// Let buffered output reach a pipe before leaving; live connections must not hold the exit.
process.stdout.write("", () => process.exit(code));
