import { describe, expect, it } from "vitest";

import { visible, visibleDeep } from "./terminal-text.ts";

describe("visible", () => {
  it("shows a terminal's control characters and bidirectional overrides as escapes", () => {
    expect(visible("Ada\u001b]52;c;ZXZpbA==\u0007")).toBe("Ada\\x1b]52;c;ZXZpbA==\\x07");
    expect(visible("\u202eadA")).toBe("\\u202eadA");
    expect(visible("tab\tand\nnewline stay; é and 名 too")).toBe(
      "tab\tand\nnewline stay; é and 名 too",
    );
  });

  it("applies to every string of a parsed JSON document, and leaves the rest", () => {
    expect(
      visibleDeep({ name: "\u001b[2J", rows: [{ score: 1, tag: "\u009b" }], ok: true, n: null }),
    ).toEqual({ name: "\\x1b[2J", rows: [{ score: 1, tag: "\\x9b" }], ok: true, n: null });
  });
});
