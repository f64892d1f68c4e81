// The leaderboard's table for people: each row's value with its 95% interval as ±, and the ranks
// it could hold when that is more than its own.
import type { LeaderboardRow } from "@gauntlet/core";

import type { Cell } from "../output.ts";

export const LEADERBOARD_HEADERS = [
  "rank",
  "could be",
  "player",
  "score",
  "±95%",
  "p>next",
  "rounds",
  "episodes",
  "form",
] as const;

function score(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Half the interval's width; an interval off-centre from the value shows as its two ends. */
export function intervalCell(row: Pick<LeaderboardRow, "score" | "score_interval">): string {
  const interval = row.score_interval;
  if (!interval) return "";
  const below = row.score - interval.low;
  const above = interval.high - row.score;
  const half = (interval.high - interval.low) / 2;
  if (below >= 0 && above >= 0 && Math.abs(below - above) <= 0.25 * half)
    return `±${half.toFixed(half < 10 ? 1 : 0)}`;
  return `${score(interval.low)}…${score(interval.high)}`;
}

/** "2–4" when the row could hold several ranks; empty when settled or unknown. */
export function rankRangeCell(row: Pick<LeaderboardRow, "rank_range">): string {
  const range = row.rank_range;
  if (!range || range.best === range.worst) return "";
  return `${range.best}–${range.worst}`;
}

export function leaderboardCells(row: LeaderboardRow): Cell[] {
  return [
    row.rank,
    rankRangeCell(row),
    row.player_name,
    score(row.score),
    intervalCell(row),
    row.p_above_next === null || row.p_above_next === undefined
      ? ""
      : `${Math.round(row.p_above_next * 100)}%`,
    row.rounds_played,
    row.episodes_played,
    row.recent_rounds
      .slice(0, 5)
      .map((x) => (x.rank === null ? "·" : String(x.rank)))
      .join(" "),
  ];
}

/** The line under the table: what the figures rest on, and whether the order is settled. */
export function leaderboardFootnote(rows: readonly LeaderboardRow[]): string | null {
  const first = rows[0];
  if (first?.evidence_episodes === undefined) return null;
  const settled = rows.every((r) => r.settled === true);
  return `intervals from ${first.evidence_episodes} episode(s); ${
    settled
      ? "every rank is settled"
      : `${rows.filter((r) => r.settled !== true).length} rank(s) not settled`
  }`;
}
