// How cogames' names find our objects: a season is a league (by id, bare UUID or name), a pool a
// division of it (by name, id or bare UUID), a match an episode request of a league round (by its
// bare UUID). The client types these ids as UUIDs, so they travel without our prefixes.
import type { Kysely } from "kysely";

import { idPrefixes, uuidPattern, type Division, type SeasonPolicyRef } from "@gauntlet/core";

import { canSeeLeague } from "../access/leagues.ts";
import type { Identity } from "../auth/identity.ts";
import { listDivisions } from "../leagues/divisions.ts";
import { getVisibleLeagueRow } from "../leagues/leagues.ts";
import { policyVersionRefs } from "../leagues/refs.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, LeaguesTable } from "../store/schema.ts";

/** The UUID inside one of our prefixed ids (`league_<uuid>` → `<uuid>`). */
export function bareId(id: string): string {
  const cut = id.indexOf("_");
  return cut === -1 ? id : id.slice(cut + 1);
}

/** The episode request a match id names. */
export const episodeRequestIdOf = (matchId: string) => `${idPrefixes.episodeRequest}${matchId}`;

/** The league a season path names, if the caller may see it; 404 otherwise. */
export async function seasonLeague(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
): Promise<LeaguesTable> {
  if (ref.startsWith(idPrefixes.league)) return getVisibleLeagueRow(db, identity, ref);
  if (uuidPattern.test(ref)) return getVisibleLeagueRow(db, identity, `${idPrefixes.league}${ref}`);
  const rows = await db
    .selectFrom("leagues")
    .selectAll()
    .where("name", "=", ref)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const row = rows.find((r) => canSeeLeague(identity, r));
  if (!row) throw notFound("season", ref);
  return row;
}

/** The league's divisions the caller may see, top first (level 0 is the top). */
export async function seasonDivisions(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<Division[]> {
  return listDivisions(db, identity, { leagueId });
}

/** A division of the league by name, id or bare UUID; 404 otherwise. */
export function poolOf(divisions: readonly Division[], ref: string): Division {
  const division = divisions.find((d) => d.id === ref || bareId(d.id) === ref || d.name === ref);
  if (!division) throw notFound("pool", ref);
  return division;
}

/** The top competition division (the leaderboard) and the one new players enter. */
export function leaderboardAndEntry(divisions: readonly Division[]): {
  top: Division | undefined;
  entry: Division | undefined;
} {
  const competition = divisions.filter((d) => d.type === "competition");
  const byLevel = [...competition].sort((a, b) => a.level - b.level);
  return { top: byLevel[0], entry: byLevel[byLevel.length - 1] };
}

/** Policy versions as cogames names them: id, policy name, number. */
export async function seasonPolicyRefs(
  db: Kysely<Database>,
  ids: Iterable<string | null>,
): Promise<Map<string, SeasonPolicyRef>> {
  const refs = await policyVersionRefs(db, ids);
  return new Map([...refs].map(([id, r]) => [id, { id: r.id, name: r.name, version: r.version }]));
}

/** The ref of a version, or a bare one when it is gone. */
export function refOf(refs: ReadonlyMap<string, SeasonPolicyRef>, id: string): SeasonPolicyRef {
  return refs.get(id) ?? { id, name: null, version: null };
}
