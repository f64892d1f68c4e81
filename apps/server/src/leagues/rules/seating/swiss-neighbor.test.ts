import { describe, expect, it } from "vitest";

import { entrants } from "../../../../testing/test-entrants.ts";
import { createRng } from "./prng.ts";
import type { RatedEntrant } from "./seats.ts";
import { standingOrder, swissNeighbor, windowStarts } from "./swiss-neighbor.ts";

const tables = (players: RatedEntrant[], k: number, round: number) =>
  swissNeighbor(players, k, 1, createRng("s"), round).map((pool) => [...pool.playerIds]);

describe("swissNeighbor", () => {
  it("seats 6 players by standing in neighbour pairs on round 0", () => {
    expect(tables(entrants(6), 2, 0)).toEqual([
      ["ply-0", "ply-1"],
      ["ply-2", "ply-3"],
      ["ply-4", "ply-5"],
    ]);
  });

  it("shifts the boundaries on the next round, so 1 meets 2 and 3 meets 4", () => {
    expect(tables(entrants(6), 2, 1)).toEqual([
      ["ply-0", "ply-1"],
      ["ply-1", "ply-2"],
      ["ply-3", "ply-4"],
      ["ply-4", "ply-5"],
    ]);
  });

  it("an odd count leaves nobody out: the last player borrows its neighbour above", () => {
    const t = tables(entrants(5), 2, 0);
    expect(t).toEqual([
      ["ply-0", "ply-1"],
      ["ply-2", "ply-3"],
      ["ply-3", "ply-4"],
    ]);
  });

  it("seats by rating, not by input order", () => {
    const players = entrants(4).map((p, i) => ({ ...p, rating: [10, 40, 20, 30][i] ?? 0 }));
    expect(tables(players, 2, 0)).toEqual([
      ["ply-1", "ply-3"],
      ["ply-2", "ply-0"],
    ]);
  });

  it("breaks rating ties by the seed, reproducibly", () => {
    const tied = entrants(8).map((p) => ({ ...p, rating: 1500 }));
    const order = (seed: string) => standingOrder(tied, createRng(seed)).map((p) => p.playerId);
    expect(order("a")).toEqual(order("a"));
    expect(order("a")).not.toEqual(order("b"));
  });

  it("handles N = 1 with a one-seat game, and refuses N below the seat count", () => {
    expect(tables(entrants(1), 1, 3)).toEqual([["ply-0"]]);
    expect(() => tables(entrants(2), 3, 0)).toThrow(RangeError);
  });

  it("covers every player in every round, for many sizes and offsets", () => {
    for (let n = 3; n <= 12; n += 1) {
      for (let k = 2; k <= Math.min(n, 5); k += 1) {
        for (let offset = 0; offset < k; offset += 1) {
          const starts = windowStarts(n, k, offset);
          const covered = new Set(
            starts.flatMap((s) => Array.from({ length: k }, (_, i) => s + i)),
          );
          expect(covered.size).toBe(n);
          expect(starts.every((s) => s >= 0 && s + k <= n)).toBe(true);
        }
      }
    }
  });

  it("repeats each table episodes_per_pairing times", () => {
    const pools = swissNeighbor(entrants(4), 2, 3, createRng("x"), 0);
    expect(pools.map((p) => p.episodes.length)).toEqual([3, 3]);
  });
});
