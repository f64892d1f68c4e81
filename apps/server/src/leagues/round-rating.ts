// Writing a settled round's results into the league's record: one round_results row per ranked
// player (with its rating before and after) and the player's rating row, updated by the league's
// rating rule over the round's rated episodes. A built-in round's results are its commissioner's
// rankings (round-settle.ts) and its ratings come from its episodes; a coworld commissioner's
// round is rated on the rankings it reported, read as one game (commissioner/round-record.ts).
import { randomUUID } from "node:crypto";

import type { Transaction } from "kysely";

import type { LadderSettings, LeaderboardRecentRound } from "@gauntlet/core";

import { parseJson } from "../shared/clock.ts";
import type { Database, LeaguesTable, RoundsTable } from "../store/schema.ts";
import { writeRating } from "./rating-rows.ts";
import {
  applyRound,
  displayRating,
  initialRatingState,
  type RatingState,
  type RoundResult,
  type SettledEpisode,
} from "./rules/index.ts";
import { RECENT_ROUNDS } from "./standings-write.ts";

/** Recent rounds kept per rating row (the leaderboard shows RECENT_ROUNDS of them). */
const KEPT_RECENT = RECENT_ROUNDS * 2;

export interface RatedResults {
  league: LeaguesTable;
  round: RoundsTable;
  /** The division the results are for (a commissioner may rank several in one round). */
  divisionId: string;
  settings: LadderSettings;
  episodes: readonly SettledEpisode[];
  results: readonly RoundResult[];
  /** The policy version each ranked player played with. */
  champions: ReadonlyMap<string, string>;
  completedAt: string;
  /** Extra result_metadata per player (a commissioner's own). */
  metadata?: ReadonlyMap<string, Record<string, unknown>>;
}

export async function recordRatedResults(
  trx: Transaction<Database>,
  input: RatedResults,
): Promise<void> {
  const { league, round, divisionId, settings, episodes, results, champions, completedAt } = input;
  const playerIds = results.map((r) => r.subjectId);
  const rows = await trx
    .selectFrom("ladder_ratings")
    .selectAll()
    .where("league_id", "=", league.id)
    .where("player_id", "in", playerIds)
    .execute();
  const rowOf = new Map(rows.map((r) => [r.player_id, r]));
  const states = new Map<string, RatingState>();
  for (const row of rows)
    if (row.state !== null) states.set(row.player_id, parseJson<RatingState>(row.state));
  const updated = applyRound(states, episodes, settings);
  const initial = initialRatingState(settings);
  const rating = (state: RatingState | undefined) =>
    displayRating(state && state.kind === settings.ranking ? state : initial, settings);
  for (const result of results) {
    const before = states.get(result.subjectId);
    const after = updated.get(result.subjectId) ?? before;
    await trx
      .insertInto("round_results")
      .values({
        id: randomUUID(),
        round_id: round.id,
        division_id: divisionId,
        player_id: result.subjectId,
        policy_version_id: champions.get(result.subjectId) ?? null,
        rank: result.rank,
        score: result.score,
        result_metadata: JSON.stringify({
          ...input.metadata?.get(result.subjectId),
          episodes: result.episodes,
          rating_before: rating(before),
          rating_after: rating(after),
        }),
        created_at: completedAt,
      })
      .execute();
    const recent: LeaderboardRecentRound = {
      id: round.id,
      round_number: round.round_number,
      status: "completed",
      rank: result.rank,
      score: result.score,
      started_at: round.started_at,
      completed_at: completedAt,
    };
    const row = rowOf.get(result.subjectId);
    const recentRounds = [
      recent,
      ...(row ? parseJson<LeaderboardRecentRound[]>(row.recent_rounds) : []),
    ].slice(0, KEPT_RECENT);
    const values = {
      state: after ? JSON.stringify(after) : null,
      rounds_played: (row?.rounds_played ?? 0) + 1,
      recent_rounds: JSON.stringify(recentRounds),
      updated_at: completedAt,
    };
    // No row: retired and gone from every division meanwhile; keep the rating for a return, out
    // of the standings.
    await writeRating(
      trx,
      { league_id: league.id, player_id: result.subjectId },
      row !== undefined,
      values,
      { division_id: divisionId, active: 0, ...values },
    );
  }
}
