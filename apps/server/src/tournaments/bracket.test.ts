import { describe, expect, it } from "vitest";

import {
  decideMatch,
  drawRoundRobin,
  drawSingleElimination,
  nextSlot,
  roundRobinWinner,
  seedOrder,
} from "./bracket.ts";

describe("the single-elimination bracket", () => {
  it("orders seeds so that 1 and 2 meet only in the final", () => {
    expect(seedOrder(4)).toEqual([1, 4, 2, 3]);
    expect(seedOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
  });

  it("gives the byes to the top seeds when the count is not a power of two", () => {
    const draw = drawSingleElimination(5);
    const first = draw.filter((m) => m.round === 1);
    expect(first).toEqual([
      { round: 1, position: 0, seedA: 1, seedB: null },
      { round: 1, position: 1, seedA: 4, seedB: 5 },
      { round: 1, position: 2, seedA: 2, seedB: null },
      { round: 1, position: 3, seedA: 3, seedB: null },
    ]);
    expect(draw.filter((m) => m.round === 2)).toHaveLength(2);
    expect(draw.filter((m) => m.round === 3)).toHaveLength(1);
    expect(drawSingleElimination(4)).toHaveLength(3);
    expect(drawSingleElimination(2)).toEqual([{ round: 1, position: 0, seedA: 1, seedB: 2 }]);
  });

  it("sends a winner to the next round's slot", () => {
    expect(nextSlot(1, 0)).toEqual({ round: 2, position: 0, side: "a" });
    expect(nextSlot(1, 3)).toEqual({ round: 2, position: 1, side: "b" });
  });

  it("decides by mean score, and a tie or a void match by the higher seed", () => {
    expect(decideMatch(4, 1, [3, 5], [1, 2])).toMatchObject({
      status: "completed",
      winnerSeed: 4,
      decidedBy: "score",
      scoreA: 4,
      scoreB: 1.5,
    });
    expect(decideMatch(4, 1, [2], [2])).toMatchObject({
      status: "completed",
      winnerSeed: 1,
      decidedBy: "tie_higher_seed",
    });
    expect(decideMatch(3, 2, [], [])).toEqual({
      status: "void",
      winnerSeed: 2,
      decidedBy: "void_higher_seed",
      scoreA: null,
      scoreB: null,
    });
  });
});

describe("the round-robin schedule", () => {
  it("plays every pair once, each entrant at most once a round", () => {
    for (const n of [2, 3, 4, 5, 8]) {
      const draw = drawRoundRobin(n);
      expect(draw).toHaveLength((n * (n - 1)) / 2);
      const pairs = new Set(draw.map((m) => `${m.seedA}-${m.seedB}`));
      expect(pairs.size).toBe(draw.length);
      const rounds = new Set(draw.map((m) => m.round));
      expect(rounds.size).toBe(n % 2 === 0 ? n - 1 : n);
      for (const round of rounds) {
        const seated = draw.filter((m) => m.round === round).flatMap((m) => [m.seedA, m.seedB]);
        expect(new Set(seated).size).toBe(seated.length);
      }
    }
  });

  it("ranks by matches won, equal wins to the higher seed", () => {
    expect(roundRobinWinner([3, 3, 1, 2])).toBe(3);
    expect(roundRobinWinner([2, 1, 3])).toBe(1);
    expect(roundRobinWinner([])).toBeNull();
  });
});
