import { describe, expect, it } from "vitest";

import { recentRound, row } from "../../testing/fixtures.ts";
import { fieldSize, sparkline } from "./sparkline.ts";

describe("sparkline", () => {
  it("draws the oldest round on the left and a better rank taller", () => {
    // Newest first, as served: the player won the latest round, was last the one before.
    const recent = [recentRound(3, 1), recentRound(2, 3), recentRound(1, 2)];
    expect(sparkline(recent, 3, 8)).toBe("▅▁█");
  });

  it("shows an unsettled round as a dot and keeps to the width", () => {
    const recent = [recentRound(5, null), recentRound(4, 1), recentRound(3, 1), recentRound(2, 2)];
    expect(sparkline(recent, 2, 3)).toBe("██·");
  });

  it("gives a lone player a full bar", () => {
    expect(sparkline([recentRound(1, 1)], 1, 8)).toBe("█");
  });

  it("scales against the worst rank seen, at least the number of rows", () => {
    expect(fieldSize([row(1, "A"), row(2, "B")])).toBe(2);
    expect(fieldSize([row(1, "A", { recent_rounds: [recentRound(1, 5)] })])).toBe(5);
  });
});
