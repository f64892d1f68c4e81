// Ink draws only the last frame, on exit, when it believes it runs in CI; the UI must draw
// live on a terminal even when the shell exports CI (draw-in-ci.ts runs in its own process,
// since Ink reads CI once, when it loads).
import { execFileSync } from "node:child_process";
import { PassThrough } from "node:stream";

import { describe, expect, it } from "vitest";

import { inkOptions } from "./start-watch.ts";

const DRAW_IN_CI = new URL("../testing/draw-in-ci.ts", import.meta.url).pathname;

describe("mounting the UI", () => {
  it("draws frames while running on a terminal with CI set", () => {
    const out = execFileSync(process.execPath, [DRAW_IN_CI], {
      cwd: import.meta.dirname,
      env: { ...process.env, CI: "true", NODE_ENV: "production" },
      encoding: "utf8",
    });
    expect(out.trim()).toBe("drew");
  });

  it("is interactive on a TTY and not on a pipe", () => {
    expect(inkOptions(Object.assign(new PassThrough(), { isTTY: true }))).toEqual({
      interactive: true,
    });
    expect(inkOptions(new PassThrough())).toEqual({ interactive: false });
  });
});
