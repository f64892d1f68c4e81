// Compact references embedded in league-play responses and events, loaded in batches.
import type { DivisionRef, LeagueRef, PlayerRef, PolicyVersionRef } from "@gauntlet/core";
import type { Kysely } from "kysely";
import type { Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";

export function leagueRef(row: Pick<LeaguesTable, "id" | "name">): LeagueRef {
  return { id: row.id, name: row.name };
}

export function divisionRef(row: Pick<DivisionsTable, "id" | "name" | "level" | "type" | "league_id">): DivisionRef {
  return { id: row.id, name: row.name, level: row.level, type: row.type === "staging" ? "staging" : "competition", league_id: row.league_id };
}

export async function policyVersionRefs(db: Kysely<Database>, ids: Iterable<string | null>): Promise<Map<string, PolicyVersionRef>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["pv.id", "pv.policy_id", "pv.version", "p.name"])
    .where("pv.id", "in", wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, policy_id: r.policy_id, name: r.name, version: r.version }]));
}

export async function playerRefs(db: Kysely<Database>, ids: Iterable<string | null>): Promise<Map<string, PlayerRef>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("players").select(["id", "name"]).where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }]));
}

export async function leagueRefs(db: Kysely<Database>, ids: Iterable<string>): Promise<Map<string, LeagueRef>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("leagues").select(["id", "name"]).where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [r.id, leagueRef(r)]));
}

export async function divisionRefs(db: Kysely<Database>, ids: Iterable<string>): Promise<Map<string, DivisionRef>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("divisions").select(["id", "name", "level", "type", "league_id"]).where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [r.id, divisionRef(r)]));
}

/** A reference that must exist (rows are never deleted); a missing one is a broken store. */
export function must<T>(map: ReadonlyMap<string, T>, id: string, what: string): T {
  const value = map.get(id);
  if (value === undefined) throw new Error(`${what} ${id} is missing from the store`);
  return value;
}
