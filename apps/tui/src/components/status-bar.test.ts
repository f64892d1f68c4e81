import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { lines, renderAt } from "../../testing/ink.ts";
import { StatusBar } from "./status-bar.ts";

afterEach(cleanup);

describe("the status line", () => {
  it("shows the latest notice, marked by level, above the keys", async () => {
    const bar = renderAt(
      h(StatusBar, {
        notice: { level: "warn", text: "rate limited (429); retry in 3s", at: 0 },
        hints: "q quit",
        width: 60,
      }),
      60,
      10,
    );
    const frame = await bar.waitFor("the notice", (f) => f.includes("rate limited"));
    expect(lines(frame)).toEqual(["! rate limited (429); retry in 3s", "q quit"]);
    bar.rerender(
      h(StatusBar, {
        notice: { level: "error", text: "cannot reach the server (ECONNREFUSED)", at: 1 },
        hints: "q quit",
        width: 60,
      }),
    );
    await bar.waitFor("the error", (f) => f.startsWith("✗ cannot reach the server (ECONNREFUSED)"));
  });

  it("keeps to one line per row however long the notice", async () => {
    const bar = renderAt(
      h(StatusBar, {
        notice: { level: "info", text: "x".repeat(200), at: 0 },
        hints: "keys ".repeat(40),
        width: 40,
      }),
      40,
      10,
    );
    const frame = await bar.waitFor("the notice", (f) => f.includes("x"));
    expect(lines(frame)).toHaveLength(2);
    expect(Math.max(...lines(frame).map((l) => l.length))).toBeLessThanOrEqual(40);
  });
});
