// Players: identities a user competes as; their tokens act under the owner's budget.
import type { Kysely } from "kysely";

import { newId, type Player } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, PlayersTable } from "../store/schema.ts";

export function toPlayer(row: PlayersTable, isDefault: boolean): Player {
  return {
    id: row.id,
    name: row.name,
    owner_user_id: row.owner_user_id,
    user_id: row.owner_user_id,
    is_default: isDefault,
    avatar_url: null,
    created_at: row.created_at,
    disabled_at: null,
  };
}

/** A user's players, oldest first: the oldest is their default (ties broken by id). */
function playersOf(db: Kysely<Database>, ownerUserId: string) {
  return db
    .selectFrom("players")
    .selectAll()
    .where("owner_user_id", "=", ownerUserId)
    .orderBy("created_at")
    .orderBy("id");
}

export async function createPlayer(
  db: Kysely<Database>,
  ownerUserId: string,
  name: string,
): Promise<Player> {
  const row: PlayersTable = {
    id: newId("player"),
    name,
    owner_user_id: ownerUserId,
    created_at: nowIso(),
  };
  await db.insertInto("players").values(row).execute();
  const first = await playersOf(db, ownerUserId).select("id").executeTakeFirst();
  return toPlayer(row, first?.id === row.id);
}

/**
 * The user's default player — their first — made for them when they have none yet, so that a
 * submission or a client that never heard of players (the hosted service's coworld and cogames)
 * competes as someone. It is named `nameIfMade` (a first submission gives its policy's name: the
 * standings then show the bot, not the account) or else after their email's local part. Two
 * racing first calls may both insert; the oldest row stays the default for both, so neither
 * answer is wrong.
 */
export async function defaultPlayer(
  db: Kysely<Database>,
  ownerUserId: string,
  nameIfMade?: string,
): Promise<Player> {
  const first = await playersOf(db, ownerUserId).executeTakeFirst();
  if (first) return toPlayer(first, true);
  const user = await db
    .selectFrom("users")
    .select("email")
    .where("id", "=", ownerUserId)
    .executeTakeFirst();
  if (!user) throw notFound("user", ownerUserId);
  // A player's name is at most 100 characters, whatever named the policy.
  const name = nameIfMade?.trim().slice(0, 100) || user.email.split("@")[0] || "player";
  await createPlayer(db, ownerUserId, name);
  const made = await playersOf(db, ownerUserId).executeTakeFirstOrThrow();
  return toPlayer(made, true);
}

/** The user's players, their default first (made for them when they have none). */
export async function listPlayers(db: Kysely<Database>, ownerUserId: string): Promise<Player[]> {
  await defaultPlayer(db, ownerUserId);
  const rows = await playersOf(db, ownerUserId).execute();
  return rows.map((row, index) => toPlayer(row, index === 0));
}

/** A player the caller owns (or any, for admins); others are 404 (docs/api.md, "Who sees what"). */
export async function getOwnedPlayer(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  playerId: string,
): Promise<PlayersTable> {
  const row = await db
    .selectFrom("players")
    .selectAll()
    .where("id", "=", playerId)
    .executeTakeFirst();
  const mayAct =
    row &&
    (row.owner_user_id === identity.userId || actsAsAdmin(identity)) &&
    (identity.kind !== "player" || identity.subjectId === playerId);
  if (!row || !mayAct) throw notFound("player", playerId);
  return row;
}
