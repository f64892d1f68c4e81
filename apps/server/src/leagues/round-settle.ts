// Settling a round once all its episodes are final: round results, ratings, standings and
// promotion, in one transaction that begins with a conditional status change — so a round
// settles once, whichever replica or delivery gets there first, and a result counts once.
import type { Kysely, Transaction } from "kysely";

import type { EpisodeRequest, LadderSettings } from "@gauntlet/core";

import type { EventBus } from "../events/bus.ts";
import { withEvents, type Emit } from "../events/record.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import type { Database, DivisionsTable, LeaguesTable, RoundsTable } from "../store/schema.ts";
import { ladderOrDefault } from "./ladder.ts";
import { lockLeague } from "./league-lock.ts";
import { recordedEpisodes, scoredEpisodes } from "./ledger/scored-episodes.ts";
import { applyPromotion } from "./promotion-moves.ts";
import { recordRatedResults } from "./round-rating.ts";
import { roundResults, type SettledEpisode } from "./rules/index.ts";
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

/** The champion each player seated in this round (from its pools). */
async function championsOf(
  trx: Transaction<Database>,
  roundId: string,
): Promise<Map<string, string>> {
  const pools = await trx
    .selectFrom("pools")
    .select(["members"])
    .where("round_id", "=", roundId)
    .execute();
  const out = new Map<string, string>();
  for (const pool of pools) {
    for (const m of parseJson<{ player_id: string | null; policy_version_id: string }[]>(
      pool.members,
    ))
      if (m.player_id) out.set(m.player_id, m.policy_version_id);
  }
  return out;
}

async function rateRound(
  trx: Transaction<Database>,
  league: LeaguesTable,
  round: RoundsTable,
  settings: LadderSettings,
  episodes: SettledEpisode[],
  completedAt: string,
): Promise<number> {
  const results = roundResults(episodes, settings);
  if (results.length === 0) return 0;
  const champions = await championsOf(trx, round.id);
  await recordRatedResults(trx, {
    league,
    round,
    divisionId: round.division_id,
    settings,
    episodes,
    results,
    champions,
    completedAt,
  });
  return results.length;
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

  const ranked =
    status === "completed"
      ? await rateRound(trx, league, round, settings, settled, completedAt)
      : 0;
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
  await settleStandings(trx, emit, league, settings, division, round, status);
  return {
    settled: true,
    round: { ...round, status, active: null, completed_at: completedAt, error },
    status,
  };
}

async function settleStandings(
  trx: Transaction<Database>,
  emit: Emit,
  league: LeaguesTable,
  settings: LadderSettings,
  division: DivisionsTable,
  round: RoundsTable,
  status: string,
): Promise<void> {
  if (status === "completed") {
    const moved = await applyPromotion(trx, emit, league, settings, division);
    for (const d of moved)
      await refreshStandings(
        trx,
        league,
        settings,
        d,
        d.id === division.id ? round.id : null,
        emit,
      );
    if (moved.some((d) => d.id === division.id)) return;
  }
  await refreshStandings(trx, league, settings, division, round.id, emit);
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
  return withEvents(db, bus, (trx, emit) => settle(trx, emit, round));
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
