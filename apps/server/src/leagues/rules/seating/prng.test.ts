import { describe, expect, it } from "vitest";

import { createRng, shuffled } from "./prng.ts";

describe("seeded PRNG", () => {
  it("repeats its sequence for the same seed and differs for another", () => {
    const draw = (seed: string) => {
      const rng = createRng(seed);
      return Array.from({ length: 8 }, () => rng.next());
    };
    expect(draw("round_1")).toEqual(draw("round_1"));
    expect(draw("round_1")).not.toEqual(draw("round_2"));
  });

  it("stays in [0, 1) and spreads evenly over ten buckets", () => {
    const rng = createRng(42);
    const buckets = new Array<number>(10).fill(0);
    let lowest = 1;
    let highest = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const x = rng.next();
      lowest = Math.min(lowest, x);
      highest = Math.max(highest, x);
      const b = Math.floor(x * 10);
      buckets[b] = (buckets[b] ?? 0) + 1;
    }
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(highest).toBeLessThan(1);
    expect(buckets.every((count) => Math.abs(count - 2000) < 200)).toBe(true);
  });

  it("shuffles into a permutation without touching the input", () => {
    const input = [1, 2, 3, 4, 5, 6, 7, 8];
    const out = shuffled(input, createRng("s"));
    expect(input).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...out].sort((a, b) => a - b)).toEqual(input);
    expect(out).not.toEqual(input);
  });
});
