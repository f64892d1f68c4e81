import { describe, expect, it } from "vitest";

import { entrants } from "../../../../testing/test-entrants.ts";
import { createRng } from "./prng.ts";
import { roundRobin, roundRobinEpisodeCount } from "./round-robin.ts";
import type { PlannedEpisode } from "./seats.ts";

const key = (e: PlannedEpisode) =>
  e.seats
    .map((s) => s.playerId)
    .sort()
    .join(",");

describe("roundRobin", () => {
  it("pairs every two of 4 players once: 6 episodes, each player in 3", () => {
    const [pool] = roundRobin(entrants(4), 2, 1, createRng(1));
    expect(pool?.episodes).toHaveLength(6);
    expect(new Set(pool?.episodes.map(key)).size).toBe(6);
    for (const id of ["ply-0", "ply-1", "ply-2", "ply-3"]) {
      expect(pool?.episodes.filter((e) => e.seats.some((s) => s.playerId === id))).toHaveLength(3);
    }
    expect(pool?.episodes.every((e) => e.seats.every((s) => s.role === "champion"))).toBe(true);
  });

  it("handles an odd count: 5 players, 3 seats → C(5,3) = 10 distinct tables", () => {
    const [pool] = roundRobin(entrants(5), 3, 1, createRng(1));
    expect(pool?.episodes).toHaveLength(10);
    expect(new Set(pool?.episodes.map(key)).size).toBe(10);
    expect(roundRobinEpisodeCount(5, 3, 1)).toBe(10);
  });

  it("with as many repetitions as seats, each player takes each seat of its pairing once", () => {
    const [pool] = roundRobin(entrants(2), 2, 2, createRng(9));
    const seatsOf0 = pool?.episodes
      .map((e) => e.seats.findIndex((s) => s.playerId === "ply-0"))
      .sort();
    expect(seatsOf0).toEqual([0, 1]);
  });

  it("seats one player alone per episode when the game has one seat (N = 1)", () => {
    const [pool] = roundRobin(entrants(1), 1, 3, createRng(1));
    expect(pool?.episodes).toHaveLength(3);
    expect(
      pool?.episodes.every((e) => e.seats.length === 1 && e.seats[0]?.playerId === "ply-0"),
    ).toBe(true);
  });

  it("is deterministic given the seed and independent of input order", () => {
    const players = entrants(6);
    const a = roundRobin(players, 2, 2, createRng("r7"));
    const b = roundRobin([...players].reverse(), 2, 2, createRng("r7"));
    const c = roundRobin(players, 2, 2, createRng("r8"));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it("refuses fewer players than seats, and a player with two champions", () => {
    expect(() => roundRobin(entrants(1), 2, 1, createRng(1))).toThrow(RangeError);
    const twice = [...entrants(2), { playerId: "ply-0", policyVersionId: "pv-x", rating: 0 }];
    expect(() => roundRobin(twice, 2, 1, createRng(1))).toThrow(/more than one champion/);
  });

  it("counts C(n, k)·e without building it", () => {
    expect(roundRobinEpisodeCount(1000, 2, 1)).toBe(499_500);
    expect(roundRobinEpisodeCount(10, 4, 3)).toBe(630);
    expect(roundRobinEpisodeCount(3, 4, 1)).toBe(0);
  });
});
