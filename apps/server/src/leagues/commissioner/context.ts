// What a commissioner is told about its league, read from the database in the protocol's shapes
// (ids as bare UUIDs, wire-ids.ts): the league, its divisions, its live memberships, its recent
// rounds and results, and the state the last round handed back.
import type { Kysely, Transaction } from "kysely";

import {
  rosterBounds,
  type CommissionerDivisionInfo,
  type CommissionerMembershipInfo,
  type CommissionerRecentResult,
  type CommissionerRoundInfo,
  type CommissionerVariantInfo,
  type CoworldManifest,
} from "@gauntlet/core";

import { parseJson } from "../../shared/clock.ts";
import type { Database, LeaguesTable } from "../../store/schema.ts";
import { ACTIVE_STATUSES } from "../champions.ts";
import { SUBMISSION_PREFERENCES_MAX_BYTES } from "../submissions.ts";
import { toWire } from "./wire-ids.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** How many recent rounds and round results a commissioner is shown. */
export const RECENT_LIMIT = 50;

export function leagueInfo(league: LeaguesTable) {
  return {
    id: toWire(league.id),
    commissioner_key: league.commissioner_key,
    commissioner_config: parseJson<Record<string, unknown>>(league.commissioner_config),
  };
}

/** The coworld's variants, each seating as many agents as the game can. */
export function variantInfos(manifest: CoworldManifest): CommissionerVariantInfo[] {
  const players = rosterBounds(manifest).max;
  return manifest.variants.map((v) => ({
    id: v.id,
    name: v.name,
    game_config: v.game_config,
    num_agents: players,
  }));
}

export async function divisionInfos(db: Db, leagueId: string): Promise<CommissionerDivisionInfo[]> {
  const rows = await db
    .selectFrom("divisions")
    .select(["id", "name", "level", "type"])
    .where("league_id", "=", leagueId)
    .where("archived_at", "is", null)
    .orderBy("level")
    .execute();
  return rows.map((d) => ({ id: toWire(d.id), name: d.name, level: d.level, type: d.type }));
}

/**
 * The league's live memberships as a commissioner sees them. `withPreferences: false` leaves each
 * submission's preferences out (`{}`, the protocol's default): the built-in commissioner reads
 * none, so its sessions inside a round's start and settle do not carry them.
 */
export async function membershipInfos(
  db: Db,
  leagueId: string,
  options: { withPreferences?: boolean } = {},
): Promise<CommissionerMembershipInfo[]> {
  const rows = await db
    .selectFrom("league_policy_memberships as m")
    .leftJoin("players as p", "p.id", "m.player_id")
    .select([
      "m.id",
      "m.division_id",
      "m.policy_version_id",
      "m.player_id",
      "p.name as player_name",
      "m.status",
      "m.substatus",
      "m.is_champion",
      "m.submission_id",
    ])
    .where("m.league_id", "=", leagueId)
    .where("m.status", "in", ACTIVE_STATUSES)
    .orderBy("m.created_at")
    .execute();
  const preferences =
    options.withPreferences === false
      ? new Map<string, Record<string, unknown>>()
      : await submissionPreferences(
          db,
          rows.flatMap((r) => (r.submission_id ? [r.submission_id] : [])),
        );
  return rows.map((m) => ({
    id: toWire(m.id),
    league_id: toWire(leagueId),
    division_id: toWire(m.division_id),
    policy_version_id: m.policy_version_id,
    player_id: m.player_id,
    player_name: m.player_name,
    preferences: (m.submission_id ? preferences.get(m.submission_id) : undefined) ?? {},
    status: m.status,
    substatus: m.substatus,
    is_champion: m.is_champion === 1,
  }));
}

/**
 * The `preferences` object each submission was made with (empty when it had none, and when it
 * is past the bound submissions now have: one stored before the bound would reach every
 * commissioner session of its league whole).
 */
async function submissionPreferences(
  db: Db,
  ids: string[],
): Promise<Map<string, Record<string, unknown>>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("league_submissions")
    .select(["id", "preferences"])
    .where("id", "in", ids)
    .execute();
  return new Map(
    rows.map((r) => {
      const value =
        Buffer.byteLength(r.preferences) <= SUBMISSION_PREFERENCES_MAX_BYTES
          ? parseJson<unknown>(r.preferences)
          : null;
      const prefs =
        typeof value === "object" && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : {};
      return [r.id, prefs];
    }),
  );
}

export async function recentRounds(db: Db, leagueId: string): Promise<CommissionerRoundInfo[]> {
  const rows = await db
    .selectFrom("rounds")
    .select([
      "id",
      "division_id",
      "round_number",
      "status",
      "round_config",
      "created_at",
      "started_at",
      "completed_at",
    ])
    .where("league_id", "=", leagueId)
    .orderBy("created_at", "desc")
    .limit(RECENT_LIMIT)
    .execute();
  return rows.map((r) => {
    const config = parseJson<Record<string, unknown>>(r.round_config);
    const commissioner = config.commissioner;
    return {
      id: toWire(r.id),
      public_id: r.id,
      division_id: toWire(r.division_id),
      round_number: r.round_number,
      status: r.status,
      round_config:
        typeof commissioner === "object" && commissioner !== null
          ? (commissioner as Record<string, unknown>)
          : {},
      created_at: r.created_at,
      started_at: r.started_at,
      completed_at: r.completed_at,
    };
  });
}

export async function recentResults(db: Db, leagueId: string): Promise<CommissionerRecentResult[]> {
  const rows = await db
    .selectFrom("round_results as rr")
    .innerJoin("rounds as r", "r.id", "rr.round_id")
    .leftJoin("players as p", "p.id", "rr.player_id")
    .select([
      "rr.round_id",
      "rr.division_id",
      "r.round_number",
      "rr.policy_version_id",
      "rr.rank",
      "rr.score",
      "rr.player_id",
      "p.name as player_name",
      "rr.result_metadata",
      "r.completed_at",
    ])
    .where("r.league_id", "=", leagueId)
    .where("rr.policy_version_id", "is not", null)
    .orderBy("r.completed_at", "desc")
    .limit(RECENT_LIMIT * 10)
    .execute();
  return rows.flatMap((r) =>
    r.policy_version_id === null
      ? []
      : [
          {
            round_id: toWire(r.round_id),
            division_id: toWire(r.division_id),
            round_number: r.round_number,
            policy_version_id: r.policy_version_id,
            rank: r.rank,
            score: r.score,
            player_id: r.player_id,
            player_name: r.player_name,
            result_metadata: parseJson<Record<string, unknown>>(r.result_metadata),
            completed_at: r.completed_at,
          },
        ],
  );
}

/** The state the league's last completed round under this commissioner runnable handed back. */
export async function previousState(
  db: Db,
  leagueId: string,
  runnableId: string,
): Promise<unknown> {
  const row = await db
    .selectFrom("rounds")
    .select("commissioner_state")
    .where("league_id", "=", leagueId)
    .where("commissioner_runnable_id", "=", runnableId)
    .where("status", "=", "completed")
    .where("commissioner_state", "is not", null)
    .orderBy("completed_at", "desc")
    .executeTakeFirst();
  return row?.commissioner_state ? parseJson<unknown>(row.commissioner_state) : null;
}
