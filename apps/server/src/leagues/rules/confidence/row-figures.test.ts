import { describe, expect, it } from "vitest";

import { ELO_PER_NAT, rowCertainty, scaleOf } from "./row-figures.ts";
import type { StrengthSummary } from "./strength-summary.ts";

function summary(
  targets: StrengthSummary["targets"],
  pAbove: StrengthSummary["pAbove"] = () => 0.9,
  tied: StrengthSummary["tied"] = () => false,
): StrengthSummary {
  return { targets, episodes: 40, pAbove, tied };
}

const a = { known: true, estimate: 0.5, low: 0.2, high: 0.8, bestRank: 1, worstRank: 1 } as const;
const b = {
  known: true,
  estimate: -0.5,
  low: -0.8,
  high: -0.2,
  bestRank: 2,
  worstRank: 2,
} as const;

describe("row certainty", () => {
  it("puts an Elo interval on the rows' own scale: offset to their mean score, 400/ln 10 per nat", () => {
    const rows = [
      { rank: 1, score: 1560 },
      { rank: 2, score: 1440 },
    ];
    const s = summary([a, b]);
    const scale = scaleOf("elo", rows, s);
    const figures = rowCertainty(rows, s, scale);
    expect(figures[0]?.score_interval?.low).toBeCloseTo(1500 + ELO_PER_NAT * 0.2, 9);
    expect(figures[1]?.score_interval?.high).toBeCloseTo(1500 - ELO_PER_NAT * 0.2, 9);
    expect(figures.map((f) => [f.rank_range, f.settled, f.p_above_next])).toEqual([
      [{ best: 1, worst: 1 }, true, 0.9],
      [{ best: 2, worst: 2 }, true, null],
    ]);
  });

  it("has no regression scale when the values fall as strength rises", () => {
    const rows = [
      { rank: 1, score: 1 },
      { rank: 2, score: 2 },
    ];
    expect(scaleOf("regression", rows, summary([a, b]))).toBeNull();
    expect(rowCertainty(rows, summary([a, b]), null)[0]?.score_interval).toBeNull();
  });

  it("lets an unrecorded row hold any rank and widens the others' worst rank for it", () => {
    const rows = [
      { rank: 1, score: 1560 },
      { rank: 2, score: 1500 },
      { rank: 3, score: 1440 },
    ];
    const s = summary([a, { known: false }, { ...b, bestRank: 2, worstRank: 2 }], (x, y) =>
      x === 1 || y === 1 ? null : 0.9,
    );
    const figures = rowCertainty(rows, s, scaleOf("elo", rows, s));
    expect(figures.map((f) => [f.rank_range, f.settled, f.p_above_next])).toEqual([
      [{ best: 1, worst: 2 }, false, null],
      [{ best: 1, worst: 3 }, false, null],
      [{ best: 2, worst: 3 }, false, null],
    ]);
    expect(figures[1]?.score_interval).toBeNull();
  });

  it("always includes the published rank in the range", () => {
    const rows = [
      { rank: 1, score: 1510 },
      { rank: 2, score: 1490 },
    ];
    // The fit puts the second row first in every resample; the published order disagrees.
    const s = summary([
      { ...a, bestRank: 2, worstRank: 2 },
      { ...b, bestRank: 1, worstRank: 1 },
    ]);
    expect(rowCertainty(rows, s, null).map((f) => f.rank_range)).toEqual([
      { best: 1, worst: 2 },
      { best: 1, worst: 2 },
    ]);
  });

  it("settles twins the fit calls even as a tie: their rank range is the run's places", () => {
    const twin = { ...a, bestRank: 1, worstRank: 2 };
    const rows = [
      { rank: 1, score: 1560 },
      { rank: 2, score: 1558 },
      { rank: 3, score: 1400 },
    ];
    const third = { ...b, bestRank: 3, worstRank: 3 };
    const even = (x: number, y: number) => x + y === 1;
    const s = summary([twin, twin, third], () => 0.5, even);
    expect(rowCertainty(rows, s, scaleOf("elo", rows, s)).map((f) => f.settled)).toEqual([
      true,
      true,
      true,
    ]);
    // Not vouched even: the same rank ranges are unsettled.
    const unsure = summary([twin, twin, third], () => 0.5);
    expect(rowCertainty(rows, unsure, scaleOf("elo", rows, unsure)).map((f) => f.settled)).toEqual([
      false,
      false,
      true,
    ]);
  });
});
