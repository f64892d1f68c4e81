// Removes the run's home (hermetic.ts) when the run ends.
import { rmSync } from "node:fs";

import type { TestProject } from "vitest/node";

import { TEST_HOME } from "./hermetic.ts";

export default function setup(project: TestProject): () => void {
  return () => {
    const home = project.config.env[TEST_HOME];
    if (typeof home === "string") rmSync(home, { recursive: true, force: true });
  };
}
