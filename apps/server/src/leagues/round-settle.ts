// Settling a built-in round once all its episodes are final: the built-in commissioner's
// round_complete (builtin/builtin-round-end.ts) recorded as round results, ratings, membership
// moves and standings, in one transaction that begins with a conditional status change — so a round
// settles once, whichever replica or delivery gets there first, and a result counts once.
import type { Kysely, Transaction } from "kysely";

import type { EpisodeRequest, LadderSettings } from "@gauntlet/core";

import type { EventBus } from "../events/bus.ts";
import { withEvents, type Emit } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database, DivisionsTable, LeaguesTable, RoundsTable } from "../store/schema.ts";
import { askBuiltinEnd } from "./commissioner/builtin/builtin-round-end.ts";
import { CommissionerFailure } from "./commissioner/channel.ts";
import {
  applyMembershipEvents,
  leagueDivisions,
  type AppliedEvents,
} from "./commissioner/membership-events.ts";
import { failRound } from "./commissioner/round-fail.ts";
import { fromWire } from "./commissioner/wire-ids.ts";
import { ladderOrDefault } from "./ladder.ts";
import { lockLeague } from "./league-lock.ts";
import { recordedEpisodes, scoredEpisodes } from "./ledger/scored-episodes.ts";
import { announceMoves, completedRounds } from "./promotion-moves.ts";
import { recordRatedResults } from "./round-rating.ts";
import type { RoundResult, SettledEpisode } from "./rules/index.ts";
import { refreshStandings } from "./standings-write.ts";

const FINAL: EpisodeRequest["status"][] = ["completed", "failed", "cancelled"];

export type SettleOutcome =
  { settled: false } | { settled: true; round: RoundsTable; status: "completed" | "failed" };

export { seatSubject } from "./ledger/scored-episodes.ts";

async function settledEpisodes(
  trx: Transaction<Database>,
  roundId: string,
  settings: LadderSettings,
): Promise<{ all: { status: EpisodeRequest["status"] }[]; settled: SettledEpisode[] }> {
  const all = await trx
    .selectFrom("episode_requests")
    .select(["status"])
    .where("round_id", "=", roundId)
    .execute();
  const recorded = (await recordedEpisodes(trx, [roundId])).get(roundId) ?? [];
  return { all, settled: recorded.flatMap((e) => scoredEpisodes(e, settings)) };
}

/**
 * A completed round's end as the built-in commissioner answers it (round_complete): its rankings
 * become the round's results, with the players' ratings moved by the league's rating rule over
 * the round's episodes (ratings stay a function of the record: ledger/); its membership events
 * (promotion) are applied. Returns how many it ranked and the divisions whose members changed.
 */
async function recordBuiltinEnd(
  trx: Transaction<Database>,
  ask: {
    league: LeaguesTable;
    division: DivisionsTable;
    round: RoundsTable;
    settings: LadderSettings;
  },
  episodes: SettledEpisode[],
  completedAt: string,
): Promise<{ ranked: number; moves: AppliedEvents["moves"]; divisions: DivisionsTable[] }> {
  const { league, division, round, settings } = ask;
  const complete = await askBuiltinEnd(trx, { ...ask, episodes });
  const results: RoundResult[] = [];
  const champions = new Map<string, string>();
  for (const ranking of complete.results) {
    // The built-in ranks only its own division; anything else is a bug, not a round.
    if (fromWire("division", ranking.division_id) !== division.id)
      throw new CommissionerFailure("malformed", `rankings for ${ranking.division_id}`);
    for (const entry of ranking.rankings) {
      const played = entry.result_metadata["episodes"];
      if (!entry.player_id || typeof played !== "number")
        throw new CommissionerFailure("malformed", `a ranking of ${entry.policy_version_id}`);
      results.push({
        subjectId: entry.player_id,
        rank: entry.rank,
        score: entry.score,
        episodes: played,
      });
      champions.set(entry.player_id, entry.policy_version_id);
    }
  }
  if (results.length > 0)
    await recordRatedResults(trx, {
      league,
      round,
      divisionId: division.id,
      settings,
      episodes,
      results,
      champions,
      completedAt,
    });
  const { divisions, open } = await leagueDivisions(trx, league.id);
  const applied = await applyMembershipEvents(
    trx,
    league.id,
    complete.policy_membership_events,
    open,
  );
  return { ranked: results.length, moves: applied.moves, divisions };
}

async function settle(
  trx: Transaction<Database>,
  emit: Emit,
  round: RoundsTable,
): Promise<SettleOutcome> {
  const league = await lockLeague(trx, round.league_id);
  const division = await trx
    .selectFrom("divisions")
    .selectAll()
    .where("id", "=", round.division_id)
    .executeTakeFirst();
  if (!league || !division) return { settled: false };
  const settings = ladderOrDefault(league);
  const { all, settled } = await settledEpisodes(trx, round.id, settings);
  if (all.some((e) => !FINAL.includes(e.status))) return { settled: false };
  const status = settled.length > 0 ? "completed" : "failed";
  const completedAt = nowIso();
  const error = status === "failed" ? `all ${all.length} episode(s) of the round failed` : null;
  const claimed = await trx
    .updateTable("rounds")
    .set({ status, active: null, completed_at: completedAt, error })
    .where("id", "=", round.id)
    .where("status", "in", ["pending", "running"])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { settled: false };

  const end =
    status === "completed"
      ? await recordBuiltinEnd(trx, { league, division, round, settings }, settled, completedAt)
      : { ranked: 0, moves: [], divisions: [division] };
  const ranked = end.ranked;
  const refs = { league: league, division: division };
  const completedCount = all.filter((e) => e.status === "completed").length;
  const failedCount = all.length - completedCount;
  emit({
    type: status === "completed" ? "round_completed" : "round_failed",
    refs,
    roundId: round.id,
    headline: `${division.name}: round ${round.round_number} ${status === "completed" ? "completed" : "failed"}`,
    summary:
      status === "completed"
        ? `${completedCount} episode(s) settled${failedCount ? `, ${failedCount} failed` : ""}; ${ranked} player(s) ranked.`
        : (error ?? ""),
    payload: {
      round_id: round.id,
      round_number: round.round_number,
      status,
      episodes: all.length,
      failed_episodes: failedCount,
    },
  });
  await announceMoves(trx, emit, league, end.divisions, end.moves, {
    rule: "rounds",
    afterRounds: await completedRounds(trx, division.id),
  });
  const touched = new Set([
    division.id,
    ...end.moves.flatMap((m) => [m.fromDivisionId, m.toDivisionId]),
  ]);
  for (const d of end.divisions)
    if (touched.has(d.id))
      await refreshStandings(
        trx,
        league,
        settings,
        d,
        d.id === division.id ? round.id : null,
        emit,
      );
  return {
    settled: true,
    round: { ...round, status, active: null, completed_at: completedAt, error },
    status,
  };
}

/** Settles the round if all its episodes are final and nobody settled it yet. */
export async function settleRound(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  roundId: string,
): Promise<SettleOutcome> {
  const round = await db
    .selectFrom("rounds")
    .selectAll()
    .where("id", "=", roundId)
    .executeTakeFirst();
  if (!round || (round.status !== "running" && round.status !== "pending"))
    return { settled: false };
  // A coworld commissioner's round ends with its round_complete (leagues/commissioner).
  if (round.commissioner_runnable_id != null) return { settled: false };
  try {
    return await withEvents(db, bus, (trx, emit) => settle(trx, emit, round));
  } catch (error) {
    // A built-in commissioner that cannot end the round (it crashed, or answered what the
    // platform refuses) fails it, unscored, as a coworld commissioner's would: retried on every
    // tick instead, the round would hold its division forever.
    if (!(error instanceof CommissionerFailure)) throw error;
    const reason = `the built-in commissioner could not end the round: ${error.message}`;
    if (!(await failRound(db, bus, round.id, reason, ""))) return { settled: false };
    return {
      settled: true,
      round: { ...round, status: "failed", active: null, completed_at: nowIso(), error: reason },
      status: "failed",
    };
  }
}

/** Rounds whose episodes are all final but which have not settled (after a restart, or a missed wake-up). */
export async function settleableRounds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom("rounds as r")
    .select("r.id")
    .where("r.status", "in", ["pending", "running"])
    .where("r.commissioner_runnable_id", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("episode_requests as e")
            .select("e.id")
            .whereRef("e.round_id", "=", "r.id")
            .where("e.status", "not in", FINAL),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.id);
}
