// Leagues as cogames' seasons: the list, one season with its counts, its one version, its
// divisions as stages and pools, its progress, and a division's rules as a pool config.
import type { Kysely } from "kysely";

import {
  idPrefixes,
  type Division,
  type League,
  type ResponseOf,
  type Season,
  type SeasonDetail,
  type SeasonStage,
} from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import { ACTIVE_STATUSES } from "../leagues/champions.ts";
import { getDivision, listDivisions } from "../leagues/divisions.ts";
import { leagueView, listLeagues } from "../leagues/leagues.ts";
import type { Database, LeaguesTable } from "../store/schema.ts";
import { bareId, leaderboardAndEntry, poolOf, seasonDivisions, seasonLeague } from "./refs.ts";

interface Started {
  started_at: string | null;
}

function seasonOf(
  league: League,
  divisions: readonly Division[],
  started: Started,
  isDefault: boolean,
): Season {
  const { top, entry } = leaderboardAndEntry(divisions);
  return {
    id: bareId(league.id),
    name: league.id,
    display_name: league.name,
    version: 1,
    canonical: true,
    summary: league.description ?? "",
    game_description: league.game.description ?? "",
    entry_pool: entry?.name ?? null,
    leaderboard_pool: top?.name ?? null,
    is_default: isDefault,
    status:
      league.disabled_at !== null
        ? "complete"
        : started.started_at !== null
          ? "in_progress"
          : "not_started",
    compat_version: null,
    created_at: league.created_at,
    public: league.public,
    tournament_type: "freeplay",
    auto_roll_hour_utc: null,
    pools: divisions.map((d) => ({
      id: bareId(d.id),
      name: d.name,
      description: d.description ?? "",
      config_id: bareId(d.id),
    })),
  };
}

/** When each league's first round started (null before any did). */
async function firstStarts(
  db: Kysely<Database>,
  leagueIds: readonly string[],
): Promise<Map<string, string>> {
  if (leagueIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("rounds")
    .select(["league_id", (eb) => eb.fn.min("started_at").as("started_at")])
    .where("league_id", "in", leagueIds)
    .groupBy("league_id")
    .execute();
  return new Map(
    rows.flatMap((r) => (typeof r.started_at === "string" ? [[r.league_id, r.started_at]] : [])),
  );
}

/** The game-of-the-week league, else the first the caller sees listed. */
function defaultOf(leagues: readonly League[]): string | undefined {
  return (leagues.find((l) => l.is_game_of_week) ?? leagues[0])?.id;
}

async function defaultSeasonId(db: Kysely<Database>, identity: Identity) {
  return defaultOf(await listLeagues(db, identity, {}));
}

export async function listSeasons(db: Kysely<Database>, identity: Identity): Promise<Season[]> {
  const leagues = await listLeagues(db, identity, {});
  const divisions = await listDivisions(db, identity, {});
  const starts = await firstStarts(
    db,
    leagues.map((l) => l.id),
  );
  const defaultId = defaultOf(leagues);
  return leagues.map((league) =>
    seasonOf(
      league,
      divisions.filter((d) => d.league.id === league.id),
      { started_at: starts.get(league.id) ?? null },
      league.id === defaultId,
    ),
  );
}

/** Episode counts of the league's round episodes by division and status. */
async function matchCounts(db: Kysely<Database>, leagueId: string) {
  const rows = await db
    .selectFrom("episode_requests")
    .select(["division_id", "status", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("league_id", "=", leagueId)
    .groupBy(["division_id", "status"])
    .execute();
  return rows.map((r) => ({ division_id: r.division_id, status: r.status, n: Number(r.n) }));
}

async function membershipCounts(db: Kysely<Database>, leagueId: string) {
  return db
    .selectFrom("league_policy_memberships")
    .select(["division_id", "policy_version_id", "status"])
    .where("league_id", "=", leagueId)
    .execute();
}

export async function getSeason(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
): Promise<SeasonDetail> {
  const row = await seasonLeague(db, identity, ref);
  const [league, divisions, starts, matches, members, gameOfWeek] = await Promise.all([
    leagueView(db, row),
    seasonDivisions(db, identity, row.id),
    firstStarts(db, [row.id]),
    matchCounts(db, row.id),
    membershipCounts(db, row.id),
    defaultSeasonId(db, identity),
  ]);
  const seen = new Set(divisions.map((d) => d.id));
  const visibleMembers = members.filter((m) => seen.has(m.division_id));
  const active: readonly string[] = ACTIVE_STATUSES;
  return {
    ...seasonOf(
      league,
      divisions,
      { started_at: starts.get(row.id) ?? null },
      gameOfWeek === row.id,
    ),
    started_at: starts.get(row.id) ?? null,
    entrant_count: new Set(visibleMembers.map((m) => m.policy_version_id)).size,
    active_entrant_count: new Set(
      visibleMembers.filter((m) => active.includes(m.status)).map((m) => m.policy_version_id),
    ).size,
    match_count: matches
      .filter((m) => m.division_id !== null && seen.has(m.division_id))
      .reduce((sum, m) => sum + m.n, 0),
    stage_count: divisions.length,
  };
}

export async function seasonVersions(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
): Promise<ResponseOf<"listSeasonVersions">> {
  const row = await seasonLeague(db, identity, ref);
  return [
    {
      version: 1,
      canonical: true,
      disabled_at: row.disabled_at,
      created_at: row.created_at,
      compat_version: null,
    },
  ];
}

async function stagesOf(
  db: Kysely<Database>,
  row: LeaguesTable,
  divisions: readonly Division[],
): Promise<SeasonStage[]> {
  const [matches, members] = await Promise.all([
    matchCounts(db, row.id),
    membershipCounts(db, row.id),
  ]);
  const active: readonly string[] = ACTIVE_STATUSES;
  return divisions.map((d) => {
    const mine = matches.filter((m) => m.division_id === d.id);
    const total = mine.reduce((sum, m) => sum + m.n, 0);
    const completed = mine.filter((m) => m.status === "completed").reduce((s, m) => s + m.n, 0);
    const players = members.filter((m) => m.division_id === d.id && active.includes(m.status));
    return {
      name: d.name,
      policy_count: new Set(players.map((m) => m.policy_version_id)).size,
      match_count: total,
      completion_pct: total === 0 ? 0 : (completed / total) * 100,
      team_count: null,
      eliminated_count: null,
    };
  });
}

export async function seasonStages(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
): Promise<SeasonStage[]> {
  const row = await seasonLeague(db, identity, ref);
  return stagesOf(db, row, await seasonDivisions(db, identity, row.id));
}

/** A league plays its divisions side by side, round after round, until it is disabled. */
export async function seasonProgress(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
): Promise<ResponseOf<"getSeasonProgress">> {
  const row = await seasonLeague(db, identity, ref);
  const divisions = await seasonDivisions(db, identity, row.id);
  const [stages, starts] = await Promise.all([
    stagesOf(db, row, divisions),
    firstStarts(db, [row.id]),
  ]);
  const complete = row.disabled_at !== null;
  const { top } = leaderboardAndEntry(divisions);
  return {
    phase: complete ? "complete" : "policy_eval",
    phase_detail: complete || !top ? {} : { pool: top.name, stage_index: 1 },
    stages,
    stage_flow: divisions.map((d, i) => ({
      index: i + 1,
      name: d.name,
      kind: "policy_eval",
      description: d.description ?? `Rounds of division ${d.name} (level ${d.level})`,
      input_pool: d.name,
      output_pool: d.name,
      status: complete ? "complete" : "active",
    })),
    started: starts.has(row.id),
  };
}

/** A division's rules: the league's rules and settings with the division's own configuration. */
function rulesOf(league: League, division: Division): Record<string, unknown> {
  return {
    league_id: league.id,
    division_id: division.id,
    commissioner_key: league.commissioner_key,
    rules: league.rules,
    settings: league.settings,
    leaderboard_config: division.leaderboard_config,
    round_schedule: division.round_schedule,
    level: division.level,
    type: division.type,
  };
}

export async function seasonPoolConfig(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
  poolRef: string,
): Promise<ResponseOf<"getSeasonPoolConfig">> {
  const row = await seasonLeague(db, identity, ref);
  const division = poolOf(await seasonDivisions(db, identity, row.id), poolRef);
  return {
    pool_name: division.name,
    game_engine: division.league.game.coworld_name ?? division.league.game.name,
    config: rulesOf(division.league, division),
  };
}

export async function seasonConfig(
  db: Kysely<Database>,
  identity: Identity,
  configId: string,
): Promise<Record<string, unknown>> {
  const division = await getDivision(db, identity, `${idPrefixes.division}${configId}`);
  return rulesOf(division.league, division);
}
