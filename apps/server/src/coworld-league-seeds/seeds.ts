// League seeds (coworld's `coworld league create|list|update`): the league a coworld name
// starts, with the recipe it came from. The seed is a view of that league — `template` is its
// commissioner_key, `enabled` whether it is enabled, league fields among the overrides are the
// league's, every other override is its commissioner_config.
import type { Kysely } from "kysely";

import {
  CoworldManifest,
  newId,
  toValidationItems,
  UpdateLeagueRequest,
  type BodyOf,
  type CoworldLeagueSeed,
} from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { managesCoworldName } from "../access/coworld-names.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { listCoworlds } from "../coworlds/coworlds.ts";
import { createLeague, updateLeague } from "../leagues/leagues.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, forbidden, InputError, invalidInput, notFound } from "../shared/errors.ts";
import type { CoworldLeagueSeedsTable, Database } from "../store/schema.ts";

type Overrides = Record<string, unknown>;

/** The overrides that are league fields; the rest go to the league's commissioner_config. */
const LeagueFields = UpdateLeagueRequest.pick({
  name: true,
  description: true,
  public: true,
  hidden: true,
  is_game_of_week: true,
});
const LEAGUE_KEYS = new Set(Object.keys(LeagueFields.shape));

function split(overrides: Overrides) {
  const league: Overrides = {};
  const config: Overrides = {};
  for (const [key, value] of Object.entries(overrides))
    (LEAGUE_KEYS.has(key) ? league : config)[key] = value;
  const parsed = LeagueFields.safeParse(league);
  if (!parsed.success)
    throw new InputError(
      toValidationItems(
        "body",
        parsed.error.issues.map((i) => ({ ...i, path: ["overrides", ...i.path] })),
        { overrides },
      ),
    );
  return { league: parsed.data, config };
}

/** The canonical version of a name with its owner; 404 when the name has no version. */
async function canonicalOf(db: Kysely<Database>, name: string) {
  const canonical = (await listCoworlds(db, { name, canonicalOnly: true }))[0];
  if (!canonical) throw notFound("coworld", name);
  return canonical;
}

/** `commissioner_runnable_id` must name one of the canonical manifest's commissioners. */
function checkRunnable(manifest: unknown, config: Overrides): void {
  const runnable = config.commissioner_runnable_id;
  if (runnable === undefined) return;
  const ids = (CoworldManifest.parse(manifest).commissioner ?? []).map((c) => c.id);
  if (typeof runnable !== "string" || !ids.includes(runnable))
    throw invalidInput(
      ["body", "overrides", "commissioner_runnable_id"],
      ids.length
        ? `must be one of the coworld's commissioner runnables: ${ids.join(", ")}`
        : "the coworld's canonical version has no commissioner runnable",
      "value_error",
      runnable,
    );
}

async function toSeed(
  db: Kysely<Database>,
  row: CoworldLeagueSeedsTable,
): Promise<CoworldLeagueSeed> {
  const league = row.league_id
    ? await db
        .selectFrom("leagues")
        .select(["disabled_at"])
        .where("id", "=", row.league_id)
        .executeTakeFirst()
    : undefined;
  return {
    id: row.id,
    coworld_name: row.coworld_name,
    template: row.template,
    overrides: row.overrides === null ? null : parseJson<Overrides>(row.overrides),
    enabled: league !== undefined && league.disabled_at === null,
    created_by: row.created_by,
    notes: row.notes,
    created_at: row.created_at,
    league_id: row.league_id,
  };
}

async function setEnabled(db: Kysely<Database>, leagueId: string, enabled: boolean) {
  const now = nowIso();
  await db
    .updateTable("leagues")
    .set({ disabled_at: enabled ? null : now, updated_at: now })
    .where("id", "=", leagueId)
    .where((eb) => (enabled ? eb("disabled_at", "is not", null) : eb("disabled_at", "is", null)))
    .execute();
}

export async function createSeed(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  input: BodyOf<"createCoworldLeagueSeed">,
): Promise<CoworldLeagueSeed> {
  const coworld = await canonicalOf(db, input.coworld_name);
  if (!managesCoworldName(identity, coworld.owner_user_id))
    throw forbidden(`the coworld name ${input.coworld_name} belongs to another user`);
  const overrides = input.overrides ?? {};
  const { league: fields, config } = split(overrides);
  checkRunnable(coworld.manifest, config);
  if (fields.is_game_of_week !== undefined && !actsAsAdmin(identity))
    throw forbidden("Only admins choose the game of the week.");
  const taken = await db
    .selectFrom("coworld_league_seeds")
    .select("id")
    .where("coworld_name", "=", coworld.name)
    .executeTakeFirst();
  if (taken) throw conflict(`${coworld.name} has a league seed already; update it instead`);
  // The league is the coworld owner's to commission, whoever seeded it (an admin may).
  const owner = { ...identity, userId: coworld.owner_user_id };
  const league = await createLeague(db, owner, {
    name: fields.name ?? coworld.name,
    game_id: coworld.game_id,
    description: fields.description ?? `The league of ${coworld.name}.`,
    commissioner_key: input.template,
    commissioner_config: config,
    public: fields.public ?? true,
    hidden: fields.hidden ?? false,
    divisions: [{ name: "Main", level: 1, type: "competition" }],
  });
  if (fields.is_game_of_week !== undefined)
    await updateLeague(db, identity, league.id, { is_game_of_week: fields.is_game_of_week });
  if (!input.enabled) await setEnabled(db, league.id, false);
  const row: CoworldLeagueSeedsTable = {
    id: newId("leagueSeed"),
    coworld_name: coworld.name,
    template: input.template,
    overrides: input.overrides ? JSON.stringify(input.overrides) : null,
    created_by: identity.userId,
    league_id: league.id,
    notes: input.notes ?? null,
    created_at: nowIso(),
  };
  await db.insertInto("coworld_league_seeds").values(row).execute();
  return toSeed(db, row);
}

/** The seed, when the caller manages its coworld name; 404 to anyone else (as one that does not exist). */
async function managedSeed(db: Kysely<Database>, identity: AuthenticatedIdentity, name: string) {
  const row = await db
    .selectFrom("coworld_league_seeds")
    .selectAll()
    .where("coworld_name", "=", name)
    .executeTakeFirst();
  const owner = await db
    .selectFrom("coworlds")
    .select("owner_user_id")
    .where("name", "=", name)
    .executeTakeFirst();
  if (!row || !owner || !managesCoworldName(identity, owner.owner_user_id))
    throw notFound("league seed", name);
  return row;
}

export async function updateSeed(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  name: string,
  input: BodyOf<"updateCoworldLeagueSeed">,
): Promise<CoworldLeagueSeed> {
  const row = await managedSeed(db, identity, name);
  const coworld = await canonicalOf(db, name);
  const { league: fields, config } = split(input.overrides);
  checkRunnable(coworld.manifest, config);
  if (fields.is_game_of_week !== undefined && !actsAsAdmin(identity))
    throw forbidden("Only admins choose the game of the week.");
  if (row.league_id) {
    // Replaces the commissioner_config whole, as the overrides are replaced whole.
    await db
      .updateTable("leagues")
      .set({ commissioner_config: JSON.stringify(config), updated_at: nowIso() })
      .where("id", "=", row.league_id)
      .execute();
    if (Object.keys(fields).length > 0) await updateLeague(db, identity, row.league_id, fields);
    if (input.enabled !== undefined) await setEnabled(db, row.league_id, input.enabled);
  }
  const overrides = JSON.stringify(input.overrides);
  await db
    .updateTable("coworld_league_seeds")
    .set({ overrides })
    .where("id", "=", row.id)
    .execute();
  return toSeed(db, { ...row, overrides });
}

/** The seeds of the coworld names the caller owns; every seed for an admin. */
export async function listSeeds(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
): Promise<CoworldLeagueSeed[]> {
  let q = db.selectFrom("coworld_league_seeds").selectAll();
  if (!actsAsAdmin(identity))
    q = q.where((eb) =>
      eb(
        "coworld_name",
        "in",
        eb.selectFrom("coworlds").select("name").where("owner_user_id", "=", identity.userId),
      ),
    );
  const rows = await q.orderBy("created_at").orderBy("id").execute();
  return Promise.all(rows.map((r) => toSeed(db, r)));
}
