import { describe, expect, it } from "vitest";

import { scrubPaths } from "./scrub-paths.ts";

describe("scrubPaths", () => {
  it("hides absolute paths of the runner's machine", () => {
    expect(
      scrubPaths("ENOENT: no such file, open '/var/lib/gauntlet/runner/bundles/abc/game.ts'"),
    ).toBe("ENOENT: no such file, open '<path>'");
    expect(scrubPaths("spawn /usr/bin/python3 ENOENT")).toBe("spawn <path> ENOENT");
  });

  it("keeps URLs and short routes readable", () => {
    const text = "the game did not answer 200 on /healthz at http://127.0.0.1:8080/healthz";
    expect(scrubPaths(text)).toBe(text);
  });
});
