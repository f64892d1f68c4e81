import { describe, expect, it } from "vitest";

import { row } from "../../testing/fixtures.ts";
import { movementOf, nextStandings } from "./standings.ts";

describe("standings movement", () => {
  const a = row(1, "Ada");
  const b = row(2, "Bo");
  const c = row(3, "Cy");

  it("knows no movement before the table first changes", () => {
    const view = nextStandings(null, [a, b, c]);
    expect(movementOf(view, a)).toEqual({ kind: "unknown" });
    expect(nextStandings(null, null).rows).toEqual([]);
  });

  it("compares each rank with the previous standings when they change", () => {
    const first = nextStandings(null, [a, b, c]);
    const next = nextStandings(first, [
      { ...c, rank: 1, score: 1520 },
      { ...a, rank: 2 },
      { ...b, rank: 3, score: 1400 },
    ]);
    const [c2, a2, b2] = next.rows;
    if (!c2 || !a2 || !b2) throw new Error("rows");
    expect(movementOf(next, c2)).toEqual({ kind: "up", by: 2 });
    expect(movementOf(next, a2)).toEqual({ kind: "down", by: 1 });
    expect(movementOf(next, b2)).toEqual({ kind: "down", by: 1 });
    expect([...next.changed].sort()).toEqual([b.player_id, c.player_id].sort());
  });

  it("keeps the movement when the same table is served again, and marks newcomers", () => {
    const first = nextStandings(null, [a, b]);
    const moved = nextStandings(first, [
      { ...b, rank: 1 },
      { ...a, rank: 2 },
    ]);
    const again = nextStandings(moved, [
      { ...b, rank: 1 },
      { ...a, rank: 2 },
    ]);
    expect(again.previousRanks).toBe(moved.previousRanks);
    const withNewcomer = nextStandings(again, [{ ...b, rank: 1 }, { ...a, rank: 2 }, c]);
    expect(movementOf(withNewcomer, c)).toEqual({ kind: "new" });
    expect(movementOf(withNewcomer, { ...b, rank: 1 })).toEqual({ kind: "same" });
  });
});
