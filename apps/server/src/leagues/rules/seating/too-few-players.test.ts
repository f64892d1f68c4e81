import { describe, expect, it } from "vitest";

import { entrants } from "../../../../testing/test-entrants.ts";
import { createRng } from "./prng.ts";
import { fillerSeats, multipleSeats } from "./too-few-players.ts";

describe("multiple_seats", () => {
  it("fills 4 seats with 3 players: each champion once, one duplicate, rotating over episodes", () => {
    const pool = multipleSeats(entrants(3), 4, 3, createRng("m"));
    expect(pool.episodes).toHaveLength(3);
    const duplicated = pool.episodes.map((e) => {
      expect(e.seats).toHaveLength(4);
      expect(
        e.seats
          .filter((s) => s.role === "champion")
          .map((s) => s.playerId)
          .sort(),
      ).toEqual(["ply-0", "ply-1", "ply-2"]);
      const dup = e.seats.filter((s) => s.role === "duplicate");
      expect(dup).toHaveLength(1);
      return dup[0]?.playerId;
    });
    expect(new Set(duplicated).size).toBe(3);
  });

  it("lets a single player (N = 1) fill every seat", () => {
    const pool = multipleSeats(entrants(1), 3, 1, createRng("m"));
    expect(pool.episodes[0]?.seats.map((s) => [s.role, s.playerId])).toEqual(
      expect.arrayContaining([
        ["champion", "ply-0"],
        ["duplicate", "ply-0"],
        ["duplicate", "ply-0"],
      ]),
    );
    expect(pool.episodes[0]?.seats).toHaveLength(3);
  });
});

describe("filler_policy", () => {
  it("fills the empty seats with filler versions in turn, credited to no player", () => {
    const pool = fillerSeats(entrants(2), 5, 2, ["f-1", "f-2"], createRng("f"));
    for (const e of pool.episodes) {
      expect(e.seats).toHaveLength(5);
      const fillers = e.seats.filter((s) => s.role === "filler");
      expect(fillers).toHaveLength(3);
      expect(fillers.every((s) => s.playerId === null)).toBe(true);
    }
    const used = pool.episodes.flatMap((e) =>
      e.seats.filter((s) => s.role === "filler").map((s) => s.policyVersionId),
    );
    expect(used.filter((id) => id === "f-1")).toHaveLength(3);
    expect(used.filter((id) => id === "f-2")).toHaveLength(3);
  });

  it("refuses to run without filler versions", () => {
    expect(() => fillerSeats(entrants(1), 2, 1, [], createRng(1))).toThrow(RangeError);
  });
});
