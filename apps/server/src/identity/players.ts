// Players: identities a user competes as; their tokens act under the owner's budget.
import type { Kysely } from "kysely";

import { newId, type Player } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, PlayersTable } from "../store/schema.ts";

export function toPlayer(row: PlayersTable): Player {
  return {
    id: row.id,
    name: row.name,
    owner_user_id: row.owner_user_id,
    created_at: row.created_at,
  };
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
  return toPlayer(row);
}

export async function listPlayers(db: Kysely<Database>, ownerUserId: string): Promise<Player[]> {
  const rows = await db
    .selectFrom("players")
    .selectAll()
    .where("owner_user_id", "=", ownerUserId)
    .orderBy("created_at")
    .execute();
  return rows.map(toPlayer);
}

/** A player the caller owns (or any, for admins); others are 404 (API.md). */
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
    (row.owner_user_id === identity.userId || identity.isAdmin) &&
    (identity.kind !== "player" || identity.subjectId === playerId);
  if (!row || !mayAct) throw notFound("player", playerId);
  return row;
}
