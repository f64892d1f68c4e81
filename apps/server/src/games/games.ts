// Games and mods. A game is created by hand (admins) or by a coworld upload.
import type { Kysely } from "kysely";

import { newId, type Game, type Mod } from "@gauntlet/core";

import { ownsOrAdmin } from "../access/ownership.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, forbidden, invalidInput, notFound } from "../shared/errors.ts";
import type { CoworldsTable, Database, GamesTable, ModsTable } from "../store/schema.ts";

export function toGame(row: GamesTable): Game {
  return {
    id: row.id,
    name: row.name,
    owner_user_id: row.owner_user_id,
    created_at: row.created_at,
    coworld_name: row.coworld_name,
    coworld_id: row.coworld_id,
    description: row.description,
    notes: row.notes,
  };
}

export function toMod(row: ModsTable, game: GamesTable): Mod {
  return {
    id: row.id,
    name: row.name,
    owner_user_id: row.owner_user_id,
    game: toGame(game),
    created_at: row.created_at,
    description: row.description,
    notes: row.notes,
  };
}

export interface NewGame {
  name: string;
  ownerUserId: string;
  description?: string | null | undefined;
  notes?: string | null | undefined;
  coworldName?: string | null | undefined;
}

export async function createGame(db: Kysely<Database>, input: NewGame): Promise<Game> {
  const taken = await db
    .selectFrom("games")
    .select("id")
    .where("name", "=", input.name)
    .executeTakeFirst();
  if (taken) throw conflict(`a game named ${input.name} already exists (${taken.id})`);
  const row: GamesTable = {
    id: newId("game"),
    name: input.name,
    owner_user_id: input.ownerUserId,
    coworld_name: input.coworldName ?? null,
    coworld_id: null,
    description: input.description ?? null,
    notes: input.notes ?? null,
    created_at: nowIso(),
  };
  await db.insertInto("games").values(row).execute();
  return toGame(row);
}

export async function listGames(db: Kysely<Database>): Promise<Game[]> {
  const rows = await db
    .selectFrom("games")
    .selectAll()
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toGame);
}

export async function getGameRow(
  db: Kysely<Database>,
  id: string,
): Promise<GamesTable | undefined> {
  return db.selectFrom("games").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The coworld the game plays, or undefined when it has none (a game made by hand). */
export async function gameCoworld(
  db: Kysely<Database>,
  gameId: string,
): Promise<CoworldsTable | undefined> {
  return db
    .selectFrom("games as g")
    .innerJoin("coworlds as c", "c.id", "g.coworld_id")
    .selectAll("c")
    .where("g.id", "=", gameId)
    .executeTakeFirst();
}

export async function getGame(db: Kysely<Database>, id: string): Promise<Game> {
  const row = await getGameRow(db, id);
  if (!row) throw notFound("game", id);
  return toGame(row);
}

export async function createMod(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  input: {
    game_id: string;
    name: string;
    description?: string | null | undefined;
    notes?: string | null | undefined;
  },
): Promise<Mod> {
  const game = await getGameRow(db, input.game_id);
  if (!game)
    throw invalidInput(
      ["body", "game_id"],
      `game ${input.game_id} does not exist`,
      "value_error",
      input.game_id,
    );
  if (!ownsOrAdmin(identity, game.owner_user_id))
    throw forbidden("Only the game's owner or an admin adds mods to it.");
  const taken = await db
    .selectFrom("mods")
    .select("id")
    .where("game_id", "=", game.id)
    .where("name", "=", input.name)
    .executeTakeFirst();
  if (taken)
    throw conflict(`game ${game.name} already has a mod named ${input.name} (${taken.id})`);
  const row: ModsTable = {
    id: newId("mod"),
    game_id: game.id,
    name: input.name,
    owner_user_id: identity.userId,
    description: input.description ?? null,
    notes: input.notes ?? null,
    created_at: nowIso(),
  };
  await db.insertInto("mods").values(row).execute();
  return toMod(row, game);
}

export async function listMods(db: Kysely<Database>, gameId?: string): Promise<Mod[]> {
  let q = db
    .selectFrom("mods")
    .innerJoin("games", "games.id", "mods.game_id")
    .selectAll("mods")
    .select([
      "games.name as g_name",
      "games.owner_user_id as g_owner",
      "games.coworld_name as g_coworld_name",
      "games.coworld_id as g_coworld_id",
      "games.description as g_description",
      "games.notes as g_notes",
      "games.created_at as g_created_at",
    ]);
  if (gameId) q = q.where("mods.game_id", "=", gameId);
  const rows = await q.orderBy("mods.created_at").execute();
  return rows.map((r) =>
    toMod(r, {
      id: r.game_id,
      name: r.g_name,
      owner_user_id: r.g_owner,
      coworld_name: r.g_coworld_name,
      coworld_id: r.g_coworld_id,
      description: r.g_description,
      notes: r.g_notes,
      created_at: r.g_created_at,
    }),
  );
}

export async function getMod(db: Kysely<Database>, id: string): Promise<Mod> {
  const row = await db.selectFrom("mods").selectAll().where("id", "=", id).executeTakeFirst();
  const game = row ? await getGameRow(db, row.game_id) : undefined;
  if (!row || !game) throw notFound("mod", id);
  return toMod(row, game);
}
