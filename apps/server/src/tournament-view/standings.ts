// A division's standings as cogames' leaderboards and teams. A standings row is a player (a
// team of one cog: its champion policy version); players placed but not yet ranked follow the
// ranked ones with no score.
import type { Kysely } from "kysely";

import type {
  Division,
  QueryOf,
  ResponseOf,
  SeasonLeaderboardEntry,
  SeasonPolicyRef,
  SeasonTeam,
} from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import { ACTIVE_STATUSES } from "../leagues/champions.ts";
import { readLeaderboard, type StandingsCache } from "../leagues/standings-read.ts";
import type { Database } from "../store/schema.ts";
import {
  bareId,
  leaderboardAndEntry,
  poolOf,
  refOf,
  seasonDivisions,
  seasonLeague,
  seasonPolicyRefs,
} from "./refs.ts";

interface TeamRow {
  rank: number | null;
  playerId: string;
  score: number | null;
  matches: number;
  /** The player's active versions in the division, its champion first. */
  policies: SeasonPolicyRef[];
  createdAt: string;
}

async function divisionTeams(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  division: Division,
): Promise<TeamRow[]> {
  const [rows, members] = await Promise.all([
    readLeaderboard(db, cache, identity, division.id, false),
    db
      .selectFrom("league_policy_memberships")
      .select(["player_id", "policy_version_id", "is_champion", "created_at"])
      .where("division_id", "=", division.id)
      .where("status", "in", ACTIVE_STATUSES)
      .orderBy("is_champion", "desc")
      .orderBy("created_at", "desc")
      .execute(),
  ]);
  const refs = await seasonPolicyRefs(
    db,
    members.map((m) => m.policy_version_id),
  );
  const byPlayer = new Map<string, typeof members>();
  for (const m of members) {
    if (m.player_id === null) continue;
    byPlayer.set(m.player_id, [...(byPlayer.get(m.player_id) ?? []), m]);
  }
  const teamOf = (
    playerId: string,
    rank: number | null,
    score: number | null,
    matches: number,
  ): TeamRow => {
    const own = byPlayer.get(playerId) ?? [];
    return {
      rank,
      playerId,
      score,
      matches,
      policies: own.map((m) => refOf(refs, m.policy_version_id)),
      createdAt: own.map((m) => m.created_at).sort()[0] ?? division.created_at,
    };
  };
  const ranked = (rows ?? []).map((r) => teamOf(r.player_id, r.rank, r.score, r.episodes_played));
  const rankedIds = new Set(ranked.map((t) => t.playerId));
  const unranked = [...byPlayer.keys()]
    .filter((id) => !rankedIds.has(id))
    .map((id) => teamOf(id, null, null, 0));
  return [...ranked, ...unranked];
}

function policyRows(teams: readonly TeamRow[]): SeasonLeaderboardEntry[] {
  return teams.flatMap((t) => {
    const champion = t.policies[0];
    return t.rank !== null && t.score !== null && champion
      ? [{ rank: t.rank, policy: champion, score: t.score, matches: t.matches }]
      : [];
  });
}

function scorePolicyRows(
  teams: readonly TeamRow[],
): ResponseOf<"getSeasonScorePoliciesLeaderboard"> {
  return teams.flatMap((t) => {
    const champion = t.policies[0];
    return t.rank !== null && champion
      ? [
          {
            rank: t.rank,
            policy: champion,
            placement_score: t.rank,
            team_appearances: 1,
            team_ranks: [t.rank],
          },
        ]
      : [];
  });
}

function teamRows(division: Division, teams: readonly TeamRow[]): SeasonTeam[] {
  return teams.map((t) => ({
    id: bareId(t.playerId),
    pool_name: division.name,
    eliminated: false,
    score: t.score,
    matches: t.matches,
    cogs: t.policies.map((policy, position) => ({ position, policy })),
    created_at: t.createdAt,
  }));
}

async function topDivision(db: Kysely<Database>, identity: Identity, ref: string) {
  const league = await seasonLeague(db, identity, ref);
  return leaderboardAndEntry(await seasonDivisions(db, identity, league.id)).top;
}

export async function seasonLeaderboard(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  ref: string,
): Promise<SeasonLeaderboardEntry[]> {
  const top = await topDivision(db, identity, ref);
  return top ? policyRows(await divisionTeams(db, cache, identity, top)) : [];
}

export async function seasonScorePolicies(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  ref: string,
): Promise<ResponseOf<"getSeasonScorePoliciesLeaderboard">> {
  const top = await topDivision(db, identity, ref);
  return top ? scorePolicyRows(await divisionTeams(db, cache, identity, top)) : [];
}

export async function poolLeaderboard(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  params: { season_name: string; pool_name: string; leaderboard_type: string },
): Promise<ResponseOf<"getSeasonPoolLeaderboard">> {
  const league = await seasonLeague(db, identity, params.season_name);
  const division = poolOf(await seasonDivisions(db, identity, league.id), params.pool_name);
  const teams = await divisionTeams(db, cache, identity, division);
  if (params.leaderboard_type === "team") return teamRows(division, teams);
  if (params.leaderboard_type === "score-policies") return scorePolicyRows(teams);
  return policyRows(teams);
}

export async function seasonTeams(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  ref: string,
  query: QueryOf<"listSeasonTeams">,
): Promise<SeasonTeam[]> {
  const league = await seasonLeague(db, identity, ref);
  const divisions = await seasonDivisions(db, identity, league.id);
  const wanted = query.pool_name === undefined ? divisions : [poolOf(divisions, query.pool_name)];
  const all: SeasonTeam[] = [];
  for (const division of wanted)
    all.push(...teamRows(division, await divisionTeams(db, cache, identity, division)));
  return all
    .filter((t) => query.eliminated === undefined || t.eliminated === query.eliminated)
    .filter(
      (t) =>
        query.policy_version_id === undefined ||
        t.cogs.some((c) => c.policy.id === query.policy_version_id),
    )
    .slice(query.offset, query.offset + query.limit);
}
