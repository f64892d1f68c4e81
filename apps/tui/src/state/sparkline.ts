// A row's recent round results as a sparkline: one bar per round, oldest on the left, taller
// for a better rank among that round's players. Unsettled rounds show as a dot.
import type { LeaderboardRecentRound } from "@gauntlet/core";

const BARS = "▁▂▃▄▅▆▇█";

/**
 * `recent` is newest first, as the standings serve it; `field` is how many players a round
 * ranks (the best rank is 1, the worst `field`). At most `width` rounds are drawn.
 */
export function sparkline(
  recent: readonly LeaderboardRecentRound[],
  field: number,
  width: number,
): string {
  const shown = recent.slice(0, Math.max(0, width)).reverse();
  return shown.map((round) => bar(round.rank, field)).join("");
}

function bar(rank: number | null, field: number): string {
  if (rank === null) return "·";
  if (field <= 1) return BARS[BARS.length - 1] ?? "█";
  const clamped = Math.min(Math.max(rank, 1), field);
  const level = Math.round(((field - clamped) / (field - 1)) * (BARS.length - 1));
  return BARS[level] ?? "▁";
}

/** The number of ranked players a sparkline scales against: the worst rank seen, at least the row count. */
export function fieldSize(
  rows: readonly { recent_rounds: readonly LeaderboardRecentRound[] }[],
): number {
  let worst = rows.length;
  for (const row of rows)
    for (const round of row.recent_rounds)
      if (round.rank !== null && round.rank > worst) worst = round.rank;
  return worst;
}
