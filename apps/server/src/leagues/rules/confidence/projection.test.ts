import { describe, expect, it } from "vitest";

import { projectedStrengths, type PlayedGame } from "./projection.ts";

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

function games(pairs: readonly [string, string, number, number][]): PlayedGame[] {
  return pairs.flatMap(([a, b, pA, n]) => Array.from({ length: n }, () => ({ a, b, pA })));
}

describe("the strengths a fit converges to", () => {
  it("are a transitive field's true strengths, whatever was played", () => {
    const truth = new Map([
      ["a", 1],
      ["b", 0.4],
      ["c", -0.3],
      ["d", -1.1],
    ]);
    const p = (x: string, y: string) => logistic((truth.get(x) ?? 0) - (truth.get(y) ?? 0));
    // A lopsided design: mostly neighbours, one long game.
    const played = games([
      ["a", "b", p("a", "b"), 30],
      ["b", "c", p("b", "c"), 5],
      ["c", "d", p("c", "d"), 12],
      ["a", "d", p("a", "d"), 1],
    ]);
    const start = new Map([...truth].map(([id]) => [id, 0]));
    const fitted = projectedStrengths(played, start);
    const shift = (fitted.get("a") ?? 0) - (truth.get("a") ?? 0);
    for (const [id, t] of truth) expect((fitted.get(id) ?? 0) - shift).toBeCloseTo(t, 4);
  });

  it("part a cycle by how it was played: even when every pair met alike, a chain when one did not", () => {
    const stated = new Map([
      ["a", 0],
      ["b", 0],
      ["c", 0],
    ]);
    // a beats b, b beats c, c beats a, each 70% of the time.
    const even = projectedStrengths(
      games([
        ["a", "b", 0.7, 10],
        ["b", "c", 0.7, 10],
        ["c", "a", 0.7, 10],
      ]),
      stated,
    );
    expect(even.get("a") ?? NaN).toBeCloseTo(even.get("b") ?? NaN, 6);
    expect(even.get("b") ?? NaN).toBeCloseTo(even.get("c") ?? NaN, 6);
    const chain = projectedStrengths(
      games([
        ["a", "b", 0.7, 10],
        ["b", "c", 0.7, 10],
      ]),
      stated,
    );
    const gap = Math.log(0.7 / 0.3);
    expect((chain.get("a") ?? 0) - (chain.get("b") ?? 0)).toBeCloseTo(gap, 4);
    expect((chain.get("b") ?? 0) - (chain.get("c") ?? 0)).toBeCloseTo(gap, 4);
  });
});
