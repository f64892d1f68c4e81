import { describe, expect, it } from "vitest";

import { boundedEcho, jsonDepth, MAX_ECHO_CHARS } from "./body-bounds.ts";

describe("body bounds", () => {
  it("measures JSON depth without recursing and ignores brackets inside strings", () => {
    expect(jsonDepth('{"a": [1, {"b": "[[[[{{{"}]}')).toBe(3);
    expect(jsonDepth(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toBe(100_000);
    expect(jsonDepth('"\\"[["')).toBe(0);
  });

  it("echoes a small input whole and cuts a deep or huge one", () => {
    expect(boundedEcho({ name: "x", n: [1, 2] })).toEqual({ name: "x", n: [1, 2] });
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const echoed = boundedEcho(deep);
    expect(JSON.stringify(echoed)).toBe('{"a":{"a":{"a":{"a":"{…}"}}}}');
    const huge = boundedEcho({
      text: "x".repeat(1_000_000),
      list: Array.from({ length: 1000 }, (_, i) => i),
    });
    expect(JSON.stringify(huge).length).toBeLessThanOrEqual(MAX_ECHO_CHARS + 20);
  });
});
