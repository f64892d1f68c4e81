// The leaderboard's table for people: each row's score (the fit's strength) with its 95% interval
// as its two ends, the ranks it could hold (or that its rank is settled), and its form (the
// online rating, moving a game at a time).
import type { LeaderboardRow } from "@gauntlet/core";

import type { Cell } from "../output.ts";

export const LEADERBOARD_HEADERS = [
  "rank",
  "could rank",
  "player",
  "score",
  "95% interval",
  "p>next",
  "form",
  "rounds",
  "episodes",
  "recent ranks",
] as const;

function score(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The interval's two ends ("1500…1580"); empty when the record says nothing about the row. */
export function intervalCell(row: Pick<LeaderboardRow, "score_interval">): string {
  const interval = row.score_interval;
  return interval ? `${score(interval.low)}…${score(interval.high)}` : "";
}

/**
 * "2–4" while the row could hold several ranks; "settled" once its rank is (and "tied 2–3" when
 * it is settled as a tie with its neighbours); empty from a server without the figures.
 */
export function rankRangeCell(row: Pick<LeaderboardRow, "rank_range" | "settled">): string {
  const range = row.rank_range;
  if (!range) return "";
  const span = range.best === range.worst ? "" : `${range.best}–${range.worst}`;
  if (row.settled === true || span === "") return span === "" ? "settled" : `tied ${span}`;
  return span;
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
    row.form === undefined ? "" : score(row.form),
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
