import { readFile } from "node:fs/promises";

import { describe, expect, it } from "vitest";

import { unlessGone } from "./best-effort.ts";

describe("unlessGone", () => {
  it("answers null for a file that is not there, and the value when it is", async () => {
    expect(await unlessGone(readFile("/nonexistent/gauntlet-test-file"))).toBeNull();
    expect(await unlessGone(Promise.resolve(7))).toBe(7);
  });

  it("still fails on anything but a missing target (a directory read as a file)", async () => {
    await expect(unlessGone(readFile("/"))).rejects.toMatchObject({ code: "EISDIR" });
  });
});
