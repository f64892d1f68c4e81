// The preset's `alone` files: in a suite of several workers they run one at a time after the rest.
import { rmSync } from "node:fs";

import { afterEach, describe, expect, it } from "vitest";

import { TEST_HOME } from "./hermetic.ts";
import { preset } from "./preset.ts";

type Project = { test: Record<string, unknown> & { env: Record<string, string> } };

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function configOf(workers: number, script: string) {
  const saved = process.env.npm_lifecycle_event;
  process.env.npm_lifecycle_event = script;
  try {
    const config = preset(
      import.meta.dirname,
      { maxWorkers: workers },
      { alone: ["slow.test.ts"] },
    );
    const test = config.test as Record<string, unknown> & {
      env?: Record<string, string>;
      projects?: Project[];
    };
    for (const env of [test.env, ...(test.projects ?? []).map((p) => p.test.env)])
      if (env?.[TEST_HOME]) homes.push(env[TEST_HOME]);
    return test;
  } finally {
    process.env.npm_lifecycle_event = saved;
  }
}

describe("files that run alone", () => {
  it("run after the rest, one at a time, when the suite has several workers", () => {
    const test = configOf(2, "test");
    const [rest, alone] = test.projects ?? [];
    expect(rest?.test.exclude).toContain("slow.test.ts");
    expect(rest?.test.maxWorkers).toBe(2);
    expect(alone?.test.include).toEqual(["slow.test.ts"]);
    expect(alone?.test.maxWorkers).toBe(1);
    expect((alone?.test.sequence as { groupOrder: number }).groupOrder).toBeGreaterThan(
      (rest?.test.sequence as { groupOrder: number }).groupOrder,
    );
    // Each its own home: one project's teardown cannot remove the other's.
    expect(alone?.test.env[TEST_HOME]).not.toBe(rest?.test.env[TEST_HOME]);
  });

  it("run with the rest in a suite of one worker, and are no concern of the end to end", () => {
    for (const test of [configOf(1, "test"), configOf(2, "test:e2e")]) {
      expect(test.projects).toBeUndefined();
      expect(test.exclude ?? []).not.toContain("slow.test.ts");
    }
  });
});
