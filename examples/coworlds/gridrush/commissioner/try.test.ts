// The one-command try of the README: two rounds of the hill with real GridRush episodes (the
// game server and the baselines as processes), each round run by a fresh commissioner process.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

import { describe, expect, it } from "vitest";

describe("node commissioner/try.ts", () => {
  it("plays two rounds of real duels and carries the crown from one to the next", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["commissioner/try.ts", "2"], {
      cwd: join(import.meta.dirname, ".."),
      timeout: 60_000,
    });
    const lines = stdout.trim().split("\n");
    expect(lines.filter((l) => /^ {2}hill-r\d-d\d-a\d: \w+ \d+ – \w+ \d+$/.test(l))).toHaveLength(
      4,
    );
    expect(lines.filter((l) => /^ {2}1\. \w+ \(king, reign \d\)$/.test(l))).toHaveLength(2);
    const state = JSON.parse(lines.at(-1)?.replace(/^state: /, "") ?? "null") as {
      hills: Record<string, { policy_version_id: string; reign: number; crown_changes: number }>;
    };
    const [crown] = Object.values(state.hills);
    // Random starts as king and beats neither baseline: the crown has moved at least once.
    expect(crown?.crown_changes).toBeGreaterThanOrEqual(1);
    expect(stdout).not.toMatch(/1\. random \(king/);
  });
});
