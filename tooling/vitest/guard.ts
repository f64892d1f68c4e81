// Runs before each test file (a setup file of the preset): a file whose environment points at the
// developer's home fails at once, before any test of it can read the saved sign-in or league.
import { homedir } from "node:os";

import { outsideTestHome, TEST_HOME } from "./hermetic.ts";

const outside = outsideTestHome(process.env);
if (outside.length > 0)
  throw new Error(
    `tests run with their own home (${TEST_HOME}); these point elsewhere: ${outside.join(", ")}`,
  );
if (outsideTestHome({ ...process.env, HOME: homedir() }).includes("HOME"))
  throw new Error(`os.homedir() is ${homedir()}, not inside ${process.env[TEST_HOME] ?? "?"}`);
