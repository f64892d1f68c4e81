// Leagues: creation, visibility, settings, locks and pausing. Division sets live in
// divisions.ts. Reads embed the game and mod and load them in batches.
import type { Kysely } from "kysely";

import { LadderSettings, newId, toValidationItems, type BodyOf, type League } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { canSeeLeague, isCommissioner, visibleLeagueIds } from "../access/leagues.ts";
import { isAuthenticated, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import { toGame, toMod } from "../games/games.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { forbidden, InputError, invalidInput, notFound } from "../shared/errors.ts";
import type { Database, GamesTable, LeaguesTable, ModsTable } from "../store/schema.ts";
import { insertDivisions } from "./division-rows.ts";

export async function leagueViews(db: Kysely<Database>, rows: LeaguesTable[]): Promise<League[]> {
  if (rows.length === 0) return [];
  const gameIds = [...new Set(rows.map((r) => r.game_id))];
  const modIds = [...new Set(rows.flatMap((r) => (r.mod_id ? [r.mod_id] : [])))];
  const mods: ModsTable[] = modIds.length
    ? await db.selectFrom("mods").selectAll().where("id", "in", modIds).execute()
    : [];
  const allGameIds = [...new Set([...gameIds, ...mods.map((m) => m.game_id)])];
  const games = new Map<string, GamesTable>(
    (await db.selectFrom("games").selectAll().where("id", "in", allGameIds).execute()).map((g) => [
      g.id,
      g,
    ]),
  );
  const modById = new Map(mods.map((m) => [m.id, m]));
  return rows.map((row) => {
    const game = games.get(row.game_id);
    if (!game) throw new Error(`league ${row.id} refers to missing game ${row.game_id}`);
    const mod = row.mod_id ? modById.get(row.mod_id) : undefined;
    const modGame = mod ? games.get(mod.game_id) : undefined;
    return {
      id: row.id,
      name: row.name,
      commissioner_key: row.commissioner_key,
      game: toGame(game),
      mod: mod && modGame ? toMod(mod, modGame) : null,
      created_at: row.created_at,
      description: row.description,
      commissioner_config: parseJson(row.commissioner_config),
      commissioner_migration_version: row.commissioner_migration_version,
      rounds_paused_at: row.rounds_paused_at,
      settings: parseJson(row.settings),
      filler_policy_version_ids: parseJson(row.filler_policy_version_ids),
      rules: parseJson(row.rules),
      public: row.public === 1,
      hidden: row.hidden === 1,
      is_game_of_week: row.is_game_of_week === 1,
      disabled_at: row.disabled_at,
      notes: row.notes,
      commissioner_user_id: row.commissioner_user_id,
    };
  });
}

export async function leagueView(db: Kysely<Database>, row: LeaguesTable): Promise<League> {
  const [view] = await leagueViews(db, [row]);
  if (!view) throw new Error("unreachable: one row gives one view");
  return view;
}

/**
 * The league row if the caller may see it; 404 otherwise (docs/api.md, "Who sees what": hidden is
 * not 403).
 */
export async function getVisibleLeagueRow(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<LeaguesTable> {
  const row = await db
    .selectFrom("leagues")
    .selectAll()
    .where("id", "=", leagueId)
    .executeTakeFirst();
  if (!row || !canSeeLeague(identity, row)) throw notFound("league", leagueId);
  return row;
}

/** The league row if the caller commissions it: 404 when unseen, 403 when seen but not theirs. */
export async function getCommissionedLeagueRow(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
): Promise<LeaguesTable> {
  const row = await getVisibleLeagueRow(db, identity, leagueId);
  if (!isCommissioner(identity, row))
    throw forbidden(`Only the commissioner of league ${leagueId} or an admin may change it.`);
  return row;
}

export async function listLeagues(
  db: Kysely<Database>,
  identity: Identity,
  filter: { gameId?: string | undefined; mine?: boolean | undefined },
  /** A page of the listing (the route's); every league when absent (views that pick one). */
  page?: { limit: number; offset: number },
): Promise<League[]> {
  // Filtered and paged in SQL: a listing reads one page, however many leagues there are.
  let q = db.selectFrom("leagues").selectAll().where("id", "in", visibleLeagueIds(db, identity));
  if (filter.gameId) q = q.where("game_id", "=", filter.gameId);
  if (filter.mine) {
    if (!isAuthenticated(identity)) return [];
    q = q.where("commissioner_user_id", "=", identity.userId);
  }
  // Listing leaves hidden leagues out even for those who may open them by id, except admins.
  if (!filter.mine && !(isAuthenticated(identity) && actsAsAdmin(identity)))
    q = q.where("hidden", "=", 0);
  q = q.orderBy("created_at").orderBy("id");
  if (page) q = q.limit(page.limit).offset(page.offset);
  const rows = await q.execute();
  return leagueViews(db, rows);
}

/**
 * The ladder section drives the scheduler: a malformed one is refused when written, naming the
 * field.
 */
function assertLadder(settings: Record<string, unknown>, at: string[]): void {
  const ladder = LadderSettings.safeParse(settings.ladder ?? {});
  if (ladder.success) return;
  const issues = ladder.error.issues.map((i) => ({ ...i, path: [...at, "ladder", ...i.path] }));
  throw new InputError(
    toValidationItems("body", issues, at.length ? { [at[0] ?? "settings"]: settings } : settings),
  );
}

type NewLeague = BodyOf<"createLeague">;

export async function createLeague(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  input: NewLeague,
): Promise<League> {
  const game = await db
    .selectFrom("games")
    .select("id")
    .where("id", "=", input.game_id)
    .executeTakeFirst();
  if (!game)
    throw invalidInput(
      ["body", "game_id"],
      `game ${input.game_id} does not exist`,
      "value_error",
      input.game_id,
    );
  if (input.settings) assertLadder(input.settings, ["settings"]);
  if (input.mod_id) {
    const mod = await db
      .selectFrom("mods")
      .select(["id", "game_id"])
      .where("id", "=", input.mod_id)
      .executeTakeFirst();
    if (!mod)
      throw invalidInput(
        ["body", "mod_id"],
        `mod ${input.mod_id} does not exist`,
        "value_error",
        input.mod_id,
      );
    if (mod.game_id !== input.game_id)
      throw invalidInput(
        ["body", "mod_id"],
        `mod ${input.mod_id} belongs to another game`,
        "value_error",
        input.mod_id,
      );
  }
  const now = nowIso();
  const row: LeaguesTable = {
    id: newId("league"),
    name: input.name,
    commissioner_key: input.commissioner_key,
    commissioner_user_id: identity.userId,
    game_id: input.game_id,
    mod_id: input.mod_id ?? null,
    description: input.description ?? null,
    commissioner_config: JSON.stringify(input.commissioner_config ?? {}),
    commissioner_migration_version: "1",
    rounds_paused_at: null,
    settings: JSON.stringify(input.settings ?? {}),
    filler_policy_version_ids: "[]",
    rules: JSON.stringify(input.rules ?? {}),
    public: input.public ? 1 : 0,
    hidden: input.hidden ? 1 : 0,
    is_game_of_week: 0,
    disabled_at: null,
    notes: input.notes ?? null,
    submissions_locked: 0,
    game_version_locked: 0,
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("leagues").values(row).execute();
    if (input.divisions?.length)
      await insertDivisions(trx, row.id, input.divisions, ["body", "divisions"]);
  });
  return leagueView(db, row);
}

type LeaguePatch = BodyOf<"updateLeague">;

export async function updateLeague(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  patch: LeaguePatch,
): Promise<League> {
  const row = await getCommissionedLeagueRow(db, identity, leagueId);
  if (patch.is_game_of_week !== undefined && !actsAsAdmin(identity))
    throw forbidden("Only admins choose the game of the week.");
  const set: Partial<LeaguesTable> = { updated_at: nowIso() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.public !== undefined) set.public = patch.public ? 1 : 0;
  if (patch.hidden !== undefined) set.hidden = patch.hidden ? 1 : 0;
  if (patch.notes !== undefined) set.notes = patch.notes;
  await db.transaction().execute(async (trx) => {
    // One game of the week at a time.
    if (patch.is_game_of_week === true)
      await trx
        .updateTable("leagues")
        .set({ is_game_of_week: 0 })
        .where("is_game_of_week", "=", 1)
        .execute();
    if (patch.is_game_of_week !== undefined) set.is_game_of_week = patch.is_game_of_week ? 1 : 0;
    await trx.updateTable("leagues").set(set).where("id", "=", row.id).execute();
  });
  return leagueView(db, { ...row, ...set });
}

export async function getGameOfWeek(
  db: Kysely<Database>,
  identity: Identity,
): Promise<League | null> {
  const row = await db
    .selectFrom("leagues")
    .selectAll()
    .where("is_game_of_week", "=", 1)
    .executeTakeFirst();
  return row && canSeeLeague(identity, row) ? leagueView(db, row) : null;
}

export async function replaceSettings(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  settings: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const row = await getCommissionedLeagueRow(db, identity, leagueId);
  assertLadder(settings, []);
  await db
    .updateTable("leagues")
    .set({ settings: JSON.stringify(settings), updated_at: nowIso() })
    .where("id", "=", row.id)
    .execute();
  return settings;
}

export interface Locks {
  submissions_locked: boolean;
  game_version_locked: boolean;
}

export function locksOf(row: LeaguesTable): Locks {
  return {
    submissions_locked: row.submissions_locked === 1,
    game_version_locked: row.game_version_locked === 1,
  };
}

export async function updateLocks(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  patch: Partial<Locks>,
): Promise<Locks> {
  const row = await getCommissionedLeagueRow(db, identity, leagueId);
  const next = {
    ...locksOf(row),
    ...Object.fromEntries(
      (Object.entries(patch) as [string, unknown][]).filter(([, v]) => v !== undefined),
    ),
  };
  await db
    .updateTable("leagues")
    .set({
      submissions_locked: next.submissions_locked ? 1 : 0,
      game_version_locked: next.game_version_locked ? 1 : 0,
      updated_at: nowIso(),
    })
    .where("id", "=", row.id)
    .execute();
  return next;
}

export async function setRoundsPaused(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  paused: boolean,
): Promise<League> {
  const row = await getCommissionedLeagueRow(db, identity, leagueId);
  // Pausing twice keeps the first pause time: it is when rounds stopped.
  const rounds_paused_at = paused ? (row.rounds_paused_at ?? nowIso()) : null;
  await db
    .updateTable("leagues")
    .set({ rounds_paused_at, updated_at: nowIso() })
    .where("id", "=", row.id)
    .execute();
  return leagueView(db, { ...row, rounds_paused_at });
}
