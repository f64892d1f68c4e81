import { describe, expect, it } from "vitest";

import {
  drawDoubleElimination,
  resolveDoubleElimination,
  type DecidedMatch,
} from "./double-elimination.ts";

/** Plays a whole draw in waves (every ready match at once), with `pick` choosing each winner. */
function play(entrants: number, pick: (a: number, b: number) => number) {
  const draw = drawDoubleElimination(entrants);
  const decided = new Map<string, DecidedMatch>();
  const losses = new Map<number, number>();
  let played = 0;
  for (let wave = 0; wave < 100; wave++) {
    const { ready, byes, champion } = resolveDoubleElimination(draw, decided);
    for (const bye of byes) decided.set(bye.key, { winner: bye.winner, loser: null });
    if (champion !== null) return { champion, played, losses, waves: wave };
    // A wave seats each entrant once at most.
    const seated = ready.flatMap((m) => [m.seedA, m.seedB]);
    expect(new Set(seated).size).toBe(seated.length);
    expect(ready.length).toBeGreaterThan(0);
    for (const m of ready) {
      const winner = pick(m.seedA, m.seedB);
      const loser = winner === m.seedA ? m.seedB : m.seedA;
      losses.set(loser, (losses.get(loser) ?? 0) + 1);
      decided.set(m.key, { winner, loser });
      played++;
    }
  }
  throw new Error("the draw never finished");
}

const higherSeed = (a: number, b: number) => Math.min(a, b);
const lowerSeed = (a: number, b: number) => Math.max(a, b);

describe("the double-elimination draw", () => {
  it("has a winners bracket, a losers bracket and one grand final", () => {
    const draw = drawDoubleElimination(4);
    expect(draw.map((m) => m.key)).toEqual(["w1m0", "w1m1", "w2m0", "l1m0", "l2m0", "f1m0"]);
    expect(draw.find((m) => m.key === "l1m0")).toMatchObject({
      a: { kind: "from", match: "w1m0", take: "loser" },
      b: { kind: "from", match: "w1m1", take: "loser" },
    });
    expect(draw.find((m) => m.key === "l2m0")).toMatchObject({
      a: { kind: "from", match: "l1m0", take: "winner" },
      b: { kind: "from", match: "w2m0", take: "loser" },
    });
    expect(draw.find((m) => m.key === "f1m0")).toMatchObject({
      a: { kind: "from", match: "w2m0", take: "winner" },
      b: { kind: "from", match: "l2m0", take: "winner" },
    });
    // 8 entrants: 7 winners-bracket matches, 6 in the losers bracket, the final.
    expect(drawDoubleElimination(8)).toHaveLength(14);
    expect(drawDoubleElimination(2).map((m) => m.key)).toEqual(["w1m0", "f1m0"]);
  });

  it("plays 2n − 2 matches for every count from 2 to 24, whoever wins", () => {
    for (let n = 2; n <= 24; n++) {
      for (const pick of [
        higherSeed,
        lowerSeed,
        (a: number, b: number) => ((a * 7 + b * 3) % 2 === 0 ? a : b),
      ]) {
        const result = play(n, pick);
        expect(result.played, `n=${n}`).toBe(2 * n - 2);
        // Everybody but the champion and the final's loser drops out after two losses.
        const twice = [...result.losses.values()].filter((l) => l === 2).length;
        expect(twice).toBeGreaterThanOrEqual(n - 2);
        expect([...result.losses.values()].every((l) => l <= 2)).toBe(true);
        expect(result.losses.get(result.champion) ?? 0).toBeLessThanOrEqual(1);
      }
    }
  });

  it("lets the top seed win when the higher seed always wins, and gives byes to the top seeds", () => {
    expect(play(5, higherSeed).champion).toBe(1);
    const { byes } = resolveDoubleElimination(drawDoubleElimination(5), new Map());
    expect(
      byes
        .filter((b) => b.winner !== null && b.key.startsWith("w"))
        .map((b) => b.winner)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  it("gives the tournament to the losers bracket's champion when it wins the grand final", () => {
    // Seed 1 loses only the first match, then wins every other one, the final included.
    let firstLoss = true;
    const result = play(4, (a, b) => {
      if (a !== 1 && b !== 1) return Math.min(a, b);
      if (!firstLoss) return 1;
      firstLoss = false;
      return Math.max(a, b);
    });
    expect(result.champion).toBe(1);
    expect(result.losses.get(1)).toBe(1);
  });
});
