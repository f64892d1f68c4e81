// The standings on screen and the movement of each player since the previous standings: when
// a round settles the table changes, and each rank is compared with the one before.
import type { LeaderboardRow } from "@gauntlet/core";

export interface StandingsView {
  /** Best first; empty when the division has no standings yet. */
  readonly rows: readonly LeaderboardRow[];
  /** Each player's rank in the previous, different standings; null until the table first changes. */
  readonly previousRanks: ReadonlyMap<string, number> | null;
  /** Players whose score changed in the latest change. */
  readonly changed: ReadonlySet<string>;
}

export type Movement =
  | { kind: "up"; by: number }
  | { kind: "down"; by: number }
  | { kind: "same" }
  | { kind: "new" }
  | { kind: "unknown" };

function sameTable(a: readonly LeaderboardRow[], b: readonly LeaderboardRow[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((row, i) => {
    const other = b[i];
    return (
      other !== undefined &&
      other.player_id === row.player_id &&
      other.rank === row.rank &&
      other.score === row.score &&
      other.rounds_played === row.rounds_played
    );
  });
}

/** The view after the server served `rows` (null: no standings yet). */
export function nextStandings(
  previous: StandingsView | null,
  rows: readonly LeaderboardRow[] | null,
): StandingsView {
  const next = rows ?? [];
  if (previous === null) return { rows: next, previousRanks: null, changed: new Set() };
  // Same ranks and scores: keep the movement, take the fresher details (recent rounds).
  if (sameTable(previous.rows, next)) return { ...previous, rows: next };
  const before = new Map(previous.rows.map((r) => [r.player_id, r]));
  const changed = new Set(
    next.filter((r) => before.get(r.player_id)?.score !== r.score).map((r) => r.player_id),
  );
  return {
    rows: next,
    previousRanks: new Map(previous.rows.map((r) => [r.player_id, r.rank])),
    changed,
  };
}

export function movementOf(view: StandingsView, row: LeaderboardRow): Movement {
  if (view.previousRanks === null) return { kind: "unknown" };
  const before = view.previousRanks.get(row.player_id);
  if (before === undefined) return { kind: "new" };
  if (before > row.rank) return { kind: "up", by: before - row.rank };
  if (before < row.rank) return { kind: "down", by: row.rank - before };
  return { kind: "same" };
}

/** True when the server says every row's rank is settled (its adaptive rounds then stop). */
export function standingsSettled(rows: readonly LeaderboardRow[]): boolean {
  return rows.length > 0 && rows.every((r) => r.settled === true);
}
