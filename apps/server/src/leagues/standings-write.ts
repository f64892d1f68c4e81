// Division standings, computed when they change (a round settles; a player joins, leaves, moves
// or changes champion) and stored as served. Reads never aggregate (leaderboard-read.ts).
import type { Transaction } from "kysely";

import type {
  DivisionLeaderboards,
  LadderSettings,
  LeaderboardRecentRound,
  LeaderboardRow,
} from "@gauntlet/core";

import type { Emit } from "../events/record.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";
import { divisionRecord, recordSubject } from "./division-record.ts";
import {
  leaderboardViews,
  standings,
  type RatingState,
  type StandingEntry,
  type StandingsRecord,
} from "./rules/index.ts";

/** Rows kept per player in `recent_rounds`. */
export const RECENT_ROUNDS = 5;

export interface ComputedStandings {
  rows: LeaderboardRow[];
  views: DivisionLeaderboards;
}

/** What a division's standings are computed from: its active rating rows as entries, and its record. */
export interface StandingInputs {
  entries: StandingEntry[];
  record: StandingsRecord;
}

/** A division's standing inputs (one query each for ratings, champions and the record). */
export async function standingInputs(
  trx: Transaction<Database>,
  division: Pick<DivisionsTable, "id" | "league_id">,
): Promise<StandingInputs> {
  const ratings = await trx
    .selectFrom("ladder_ratings as lr")
    .innerJoin("players as p", "p.id", "lr.player_id")
    .select([
      "lr.player_id",
      "lr.state",
      "lr.rounds_played",
      "lr.recent_rounds",
      "p.name as player_name",
    ])
    .where("lr.league_id", "=", division.league_id)
    .where("lr.division_id", "=", division.id)
    .where("lr.active", "=", 1)
    .execute();
  const playerIds = ratings.map((r) => r.player_id);
  const champions = playerIds.length
    ? await trx
        .selectFrom("league_policy_memberships")
        .select(["player_id", "policy_version_id"])
        .where("league_id", "=", division.league_id)
        .where("player_id", "in", playerIds)
        .where("is_champion", "=", 1)
        .where("status", "in", ["qualifying", "competing"])
        .execute()
    : [];
  const championsOf = new Map<string, string[]>();
  for (const c of champions) {
    if (c.player_id === null) continue;
    championsOf.set(c.player_id, [...(championsOf.get(c.player_id) ?? []), c.policy_version_id]);
  }
  const entries: StandingEntry[] = ratings.map((r) => ({
    playerId: r.player_id,
    playerName: r.player_name,
    state: r.state === null ? undefined : parseJson<RatingState>(r.state),
    roundsPlayed: r.rounds_played,
    recentRounds: parseJson<LeaderboardRecentRound[]>(r.recent_rounds),
    policyVersionIds: championsOf.get(r.player_id) ?? [],
    subjectId: recordSubject(r.player_id, championsOf.get(r.player_id)?.[0] ?? null),
  }));
  return {
    entries,
    record: { episodes: await divisionRecord(trx, division.id), seed: division.id },
  };
}

/** The standings from their inputs: the rows as served and their views. */
export function standingsFrom(inputs: StandingInputs, settings: LadderSettings): ComputedStandings {
  const options = { includeRecentRounds: true, recentRoundsLimit: RECENT_ROUNDS };
  // The bootstrap runs here, once per standings version; reads serve what is stored.
  const rows = standings(inputs.entries, settings, { ...options, record: inputs.record });
  return { rows, views: leaderboardViews(inputs.entries, settings, options, rows) };
}

/** The standings of a division from its active ratings. */
export async function computeStandings(
  trx: Transaction<Database>,
  settings: LadderSettings,
  division: Pick<DivisionsTable, "id" | "league_id">,
): Promise<ComputedStandings> {
  return standingsFrom(await standingInputs(trx, division), settings);
}

/** Stores the standings; when they differ from the stored ones, emits `standings_changed`. Returns whether they changed. */
export async function storeStandings(
  trx: Transaction<Database>,
  league: Pick<LeaguesTable, "id" | "name">,
  division: DivisionsTable,
  computed: ComputedStandings,
  roundId: string | null,
  emit: Emit,
): Promise<boolean> {
  const rows = JSON.stringify(computed.rows);
  const views = JSON.stringify(computed.views);
  const previous = await trx
    .selectFrom("division_leaderboards")
    .select(["rows", "views", "version"])
    .where("division_id", "=", division.id)
    .executeTakeFirst();
  if (previous && previous.rows === rows && previous.views === views) return false;
  const record = {
    rows,
    views,
    round_id: roundId,
    updated_at: nowIso(),
    version: Number(previous?.version ?? 0) + 1,
  };
  await trx
    .insertInto("division_leaderboards")
    .values({ division_id: division.id, ...record })
    .onConflict((oc) => oc.column("division_id").doUpdateSet(record))
    .execute();
  const leader = computed.rows[0];
  emit({
    type: "standings_changed",
    refs: { league: league, division: division },
    roundId,
    headline: `${division.name}: standings updated${leader ? ` — ${leader.player_name} leads with ${leader.score.toFixed(1)}` : ""}`,
    payload: {
      round_id: roundId,
      rows: computed.rows.map((r) => ({
        rank: r.rank,
        player_id: r.player_id,
        player_name: r.player_name,
        score: r.score,
        rounds_played: r.rounds_played,
        episodes_played: r.episodes_played,
      })),
    },
  });
  return true;
}

export async function refreshStandings(
  trx: Transaction<Database>,
  league: LeaguesTable,
  settings: LadderSettings,
  division: DivisionsTable,
  roundId: string | null,
  emit: Emit,
): Promise<ComputedStandings> {
  const computed = await computeStandings(trx, settings, division);
  await storeStandings(trx, league, division, computed, roundId, emit);
  return computed;
}
