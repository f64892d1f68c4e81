// The objects league-play responses embed, loaded in batches: whole Leagues (with their Game)
// and Divisions (with their League), and policy versions and
// players in the hosted service's public form.
import type { Kysely } from "kysely";

import type { Division, League, PlayerRef, PolicyVersionRef } from "@gauntlet/core";

import type { Database } from "../store/schema.ts";
import { divisionViews } from "./divisions.ts";
import { leagueViews } from "./leagues.ts";

const distinct = (ids: Iterable<string | null>): string[] => [
  ...new Set([...ids].filter((id): id is string => id !== null)),
];

export async function policyVersionRefs(
  db: Kysely<Database>,
  ids: Iterable<string | null>,
): Promise<Map<string, PolicyVersionRef>> {
  const wanted = distinct(ids);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["pv.id", "pv.policy_id", "pv.version", "pv.player_id", "p.name"])
    .where("pv.id", "in", wanted)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        policy: { id: r.policy_id, name: r.name },
        version: r.version,
        player_id: r.player_id,
        policy_id: r.policy_id,
        name: r.name,
      },
    ]),
  );
}

export async function playerRefs(
  db: Kysely<Database>,
  ids: Iterable<string | null>,
): Promise<Map<string, PlayerRef>> {
  const wanted = distinct(ids);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom("players")
    .select(["id", "name"])
    .where("id", "in", wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }]));
}

export async function leaguesById(
  db: Kysely<Database>,
  ids: Iterable<string | null>,
): Promise<Map<string, League>> {
  const wanted = distinct(ids);
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("leagues").selectAll().where("id", "in", wanted).execute();
  return new Map((await leagueViews(db, rows)).map((l) => [l.id, l]));
}

export async function divisionsById(
  db: Kysely<Database>,
  ids: Iterable<string | null>,
): Promise<Map<string, Division>> {
  const wanted = distinct(ids);
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("divisions").selectAll().where("id", "in", wanted).execute();
  const leagueIds = distinct(rows.map((r) => r.league_id));
  const leagues = new Map(
    leagueIds.length
      ? (await db.selectFrom("leagues").selectAll().where("id", "in", leagueIds).execute()).map(
          (l) => [l.id, l],
        )
      : [],
  );
  return new Map((await divisionViews(db, rows, leagues)).map((d) => [d.id, d]));
}

/** The ids a row embeds its refs by; rows that name no division (submissions) leave it out. */
export interface EmbeddedIds {
  league_id: string | null;
  division_id?: string | null;
  player_id: string | null;
  policy_version_id: string | null;
}

export interface EmbeddedRefs {
  leagues: Map<string, League>;
  divisions: Map<string, Division>;
  players: Map<string, PlayerRef>;
  versions: Map<string, PolicyVersionRef>;
}

/** The league, division, player and policy version a batch of rows embeds, each kind loaded once. */
export async function embeddedRefs(
  db: Kysely<Database>,
  rows: readonly EmbeddedIds[],
): Promise<EmbeddedRefs> {
  const ids = (key: keyof EmbeddedIds) => rows.map((r) => r[key] ?? null);
  const [leagues, divisions, players, versions] = await Promise.all([
    leaguesById(db, ids("league_id")),
    divisionsById(db, ids("division_id")),
    playerRefs(db, ids("player_id")),
    policyVersionRefs(db, ids("policy_version_id")),
  ]);
  return { leagues, divisions, players, versions };
}

/** A reference that must exist (rows are never deleted); a missing one is a broken store. */
export function must<T>(map: ReadonlyMap<string, T>, id: string, what: string): T {
  const value = map.get(id);
  if (value === undefined) throw new Error(`${what} ${id} is missing from the store`);
  return value;
}
