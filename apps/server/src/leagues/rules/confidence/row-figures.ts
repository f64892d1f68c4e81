// The figures a standings row carries about its own certainty, from a bootstrap summary of the
// division's record: a 95% interval on the row's own scale, the ranks it could hold, the chance
// it is truly above the next row, and whether its rank is settled.
import type { StrengthSummary, TargetStrength } from "./strength-summary.ts";

export interface RowCertainty {
  readonly score_interval: { readonly low: number; readonly high: number } | null;
  readonly rank_range: { readonly best: number; readonly worst: number };
  readonly p_above_next: number | null;
  readonly settled: boolean;
}

/** A row as ranked, best first: its published rank and ranking value. */
export interface RankedRow {
  readonly rank: number;
  readonly score: number;
}

/** Elo points per unit of natural-log strength (Elo's 400·log10). */
export const ELO_PER_NAT = 400 / Math.LN10;

/**
 * Maps log-strength onto the rows' own scale: Elo has a fixed slope, so only the offset is set
 * (the known rows' mean score); other values are related to strength by a least-squares line
 * through the known rows, and have no mapping when that line does not rise.
 */
export function scaleOf(
  kind: "elo" | "regression",
  rows: readonly RankedRow[],
  summary: StrengthSummary,
): ((theta: number) => number) | null {
  const pairs = rows.flatMap((r, i) => {
    const t = summary.targets[i];
    return t?.known ? [{ x: t.estimate, y: r.score }] : [];
  });
  if (pairs.length === 0) return null;
  const meanX = pairs.reduce((s, p) => s + p.x, 0) / pairs.length;
  const meanY = pairs.reduce((s, p) => s + p.y, 0) / pairs.length;
  if (kind === "elo") return (theta) => meanY + ELO_PER_NAT * (theta - meanX);
  let sxx = 0;
  let sxy = 0;
  for (const p of pairs) {
    sxx += (p.x - meanX) ** 2;
    sxy += (p.x - meanX) * (p.y - meanY);
  }
  const slope = sxy / sxx;
  if (!Number.isFinite(slope) || slope <= 0) return null;
  return (theta) => meanY + slope * (theta - meanX);
}

export type Interval = { readonly low: number; readonly high: number };

/** A target's interval on the rows' scale; null when the record or the scale says nothing. */
export function intervalOf(
  target: TargetStrength | undefined,
  scale: ((theta: number) => number) | null,
): Interval | null {
  return target?.known && scale ? { low: scale(target.low), high: scale(target.high) } : null;
}

/**
 * Certainty figures for rows ranked best first (`summary.targets` in the same order). A row the
 * record knows nothing about could hold any rank; every other row's worst rank allows for it.
 * The rank range always includes the published rank. A row is settled when its rank range is one
 * rank, or holds only the places of a run of neighbours the fit calls even (`summary.tied`).
 */
export function rowCertainty(
  rows: readonly RankedRow[],
  summary: StrengthSummary,
  scale: ((theta: number) => number) | null,
): RowCertainty[] {
  const n = rows.length;
  const unknown = summary.targets.filter((t) => !t.known).length;
  // Runs of rows the fit vouches are even with the next (tied): ranks within a run are a tie.
  const runStart: number[] = [];
  rows.forEach((_, i) => {
    runStart[i] = i > 0 && summary.tied(i - 1, i) ? (runStart[i - 1] ?? i) : i;
  });
  const runEnd: number[] = [];
  for (let i = n - 1; i >= 0; i -= 1)
    runEnd[i] = i + 1 < n && summary.tied(i, i + 1) ? (runEnd[i + 1] ?? i) : i;
  return rows.map((row, i) => {
    const t = summary.targets[i];
    const interval = intervalOf(t, scale);
    const rank_range = t?.known
      ? {
          best: Math.min(row.rank, t.bestRank),
          worst: Math.min(n, Math.max(row.rank, t.worstRank + unknown)),
        }
      : { best: 1, worst: n };
    const [start, end] = [runStart[i] ?? i, runEnd[i] ?? i];
    return {
      score_interval: interval,
      rank_range,
      p_above_next: i + 1 < n ? summary.pAbove(i, i + 1) : null,
      // One rank, or only the places of a run of rows the fit calls even.
      settled:
        rank_range.best === rank_range.worst ||
        (end > start && rank_range.best >= start + 1 && rank_range.worst <= end + 1),
    };
  });
}
