// Where an experience request plays and who sits in its seats: the target (league, division or
// coworld, and variant) and each roster slot resolved to policy versions — a fixed policy, one
// of the top N of the division's standings, or a random competing champion, drawn per episode.
import { randomInt } from "node:crypto";

import type { Kysely } from "kysely";

import { CoworldManifest, rosterBounds, type CreateExperienceRequest } from "@gauntlet/core";

import { canSeeLeague } from "../access/leagues.ts";
import { assertSeatable, canSeatVersion, seatFacts, type SeatingPlace } from "../access/seating.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { overlaySecretExists } from "../episodes/config-overlay.ts";
import { gameCoworld } from "../games/games.ts";
import { competingChampions } from "../leagues/champions.ts";
import { divisionWithLeague, topCompetitionDivision } from "../leagues/divisions.ts";
import { ladderOf } from "../leagues/ladder.ts";
import { displayRating, initialRatingState, type RatingState } from "../leagues/rules/index.ts";
import { parseJson } from "../shared/clock.ts";
import { invalidInput, notFound } from "../shared/errors.ts";
import type { CoworldsTable, Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";

export interface Seat {
  policyVersionId: string;
  playerId: string | null;
  displayName: string;
}

export interface Candidate extends Seat {
  rating: number;
}

export interface ResolvedRequest {
  coworld: CoworldsTable;
  variantId: string;
  league: LeaguesTable | null;
  division: DivisionsTable | null;
  gameConfig: Record<string, unknown>;
  /** One chooser per seat, in seat order: called once per episode. */
  seats: (() => Seat)[];
  runtime: "process" | "docker";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function resolveLeague(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  body: CreateExperienceRequest,
): Promise<{ league: LeaguesTable | null; division: DivisionsTable | null }> {
  const target = body.target ?? {};
  let league: LeaguesTable | null = null;
  if (target.league_id) {
    league =
      (await db
        .selectFrom("leagues")
        .selectAll()
        .where("id", "=", target.league_id)
        .executeTakeFirst()) ?? null;
    if (!league || !canSeeLeague(identity, league)) throw notFound("league", target.league_id);
  } else if (target.league_name) {
    const rows = await db
      .selectFrom("leagues")
      .selectAll()
      .where("name", "=", target.league_name)
      .execute();
    league = rows.find((l) => canSeeLeague(identity, l)) ?? null;
    if (!league)
      throw invalidInput(
        ["body", "target", "league_name"],
        `no league named ${JSON.stringify(target.league_name)} is visible to you`,
        "value_error",
        target.league_name,
      );
  }
  let division: DivisionsTable | null = null;
  if (target.division_id) {
    const found = await divisionWithLeague(db, target.division_id);
    if (!found || !canSeeLeague(identity, found.league))
      throw notFound("division", target.division_id);
    const owner = found.league;
    division = found.division;
    if (league && league.id !== owner.id)
      throw invalidInput(
        ["body", "target", "division_id"],
        `division ${division.id} is not in league ${league.id}`,
        "value_error",
        target.division_id,
      );
    league = owner;
  } else if (target.division_name) {
    if (!league)
      throw invalidInput(
        ["body", "target", "division_name"],
        "a division_name needs league_id or league_name beside it",
        "value_error",
        target.division_name,
      );
    division =
      (await db
        .selectFrom("divisions")
        .selectAll()
        .where("league_id", "=", league.id)
        .where("name", "=", target.division_name)
        .executeTakeFirst()) ?? null;
    if (!division)
      throw invalidInput(
        ["body", "target", "division_name"],
        `league ${league.id} has no division named ${JSON.stringify(target.division_name)}`,
        "value_error",
        target.division_name,
      );
  } else if (league) {
    // A league alone: its top competition division gives top_n and random.
    division = (await topCompetitionDivision(db, league.id)) ?? null;
  }
  return { league, division };
}

async function resolveCoworld(
  db: Kysely<Database>,
  body: CreateExperienceRequest,
  league: LeaguesTable | null,
): Promise<CoworldsTable> {
  const given = body.target?.coworld_id ?? body.coworld_id;
  if (given) {
    const row = await db
      .selectFrom("coworlds")
      .selectAll()
      .where("id", "=", given)
      .executeTakeFirst();
    if (!row) throw notFound("coworld", given);
    return row;
  }
  if (!league)
    throw invalidInput(
      ["body", "target"],
      "name where to play: target.league_id, target.division_id, target.coworld_id (or coworld_id)",
      "missing",
    );
  const row = await gameCoworld(db, league.game_id);
  if (!row)
    throw invalidInput(
      ["body", "target"],
      `league ${league.id}'s game has no coworld to play`,
      "value_error",
    );
  return row;
}

/** Competing, active champions of a division, best rated first. */
export async function divisionChampions(
  db: Kysely<Database>,
  league: LeaguesTable,
  division: DivisionsTable,
): Promise<Candidate[]> {
  const ladder = ladderOf(league);
  const rows = await competingChampions(db, division.id);
  const candidates = rows.flatMap((r) => {
    if (r.player_id === null) return [];
    let rating = 0;
    if (ladder.ok) {
      const initial = initialRatingState(ladder.settings);
      const state = r.state === null ? initial : parseJson<RatingState>(r.state);
      rating = displayRating(
        state.kind === ladder.settings.ranking ? state : initial,
        ladder.settings,
      );
    }
    return [
      {
        policyVersionId: r.policy_version_id,
        playerId: r.player_id,
        displayName: r.player_name,
        rating,
      },
    ];
  });
  return candidates.sort((a, b) => b.rating - a.rating || a.playerId.localeCompare(b.playerId));
}

/** A policy ref (version id, `name` or `name:vN` of the caller's) as a seat; play sessions seat opponents with it too. */
export async function fixedSeat(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  ref: string,
  loc: (string | number)[],
  /** Where it plays: a version id is seated only with its owner's consent to play there. */
  place: SeatingPlace,
  /** Versions whose owners already put them in this game (a lobby's claimed seats). */
  preauthorised: ReadonlySet<string> = new Set(),
): Promise<Seat> {
  let q = db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .leftJoin("players as pl", "pl.id", "pv.player_id")
    .select(["pv.id", "pv.version", "p.name", "pv.player_id", "pl.name as player_name"]);
  if (UUID.test(ref)) {
    // Refused before the lookup, in one wording for an unknown and a private id alike.
    if (!preauthorised.has(ref))
      await assertSeatable(db, identity, place, [{ policyVersionId: ref, loc }]);
    q = q.where("pv.id", "=", ref);
  } else {
    const match = /^(.*?)(?::v?(\d+))?$/.exec(ref);
    const name = match?.[1] ?? ref;
    q = q.where("p.name", "=", name).where("p.owner_user_id", "=", identity.userId);
    if (match?.[2] !== undefined) q = q.where("pv.version", "=", Number(match[2]));
    q = q.orderBy("pv.version", "desc");
  }
  const row = await q.executeTakeFirst();
  if (!row)
    throw invalidInput(
      loc,
      `no policy version ${JSON.stringify(ref)} (give a version id, or the name of one of your policies with an optional :vN)`,
      "value_error",
      ref,
    );
  return {
    policyVersionId: row.id,
    playerId: row.player_id,
    displayName: row.player_name ?? `${row.name} v${row.version}`,
  };
}

/** The champions the caller may seat at this place (a division's draw played on another coworld keeps only those whose owners consent). */
async function seatableOnly(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  place: SeatingPlace,
  candidates: Candidate[],
): Promise<Candidate[]> {
  const facts = await seatFacts(
    db,
    candidates.map((c) => c.policyVersionId),
  );
  return candidates.filter((c) => {
    const version = facts.get(c.policyVersionId);
    return version !== undefined && canSeatVersion(identity, version, place);
  });
}

/** A version with no bundle: an image, for the docker runtime only. */
export async function isBundleless(
  db: Kysely<Database>,
  policyVersionId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("policy_versions")
    .select("bundle_upload_id")
    .where("id", "=", policyVersionId)
    .executeTakeFirst();
  return row !== undefined && row.bundle_upload_id === null;
}

const pick = <T>(items: readonly T[]): T => {
  const item = items[randomInt(items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
};

export async function resolveRequest(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  body: CreateExperienceRequest,
  preauthorised: ReadonlySet<string> = new Set(),
): Promise<ResolvedRequest> {
  const { league, division } = await resolveLeague(db, identity, body);
  const coworld = await resolveCoworld(db, body, league);
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const ladder = league ? ladderOf(league) : null;
  const leagueVariant = ladder?.ok ? (ladder.settings.variant_id ?? null) : null;
  const variantLoc =
    body.target?.variant_id !== undefined
      ? ["body", "target", "variant_id"]
      : ["body", "variant_id"];
  const variantId = body.target?.variant_id ?? body.variant_id ?? leagueVariant ?? null;
  const variant = variantId
    ? manifest.variants.find((v) => v.id === variantId)
    : manifest.variants[0];
  if (!variant)
    throw invalidInput(
      variantLoc,
      `coworld ${coworld.name} has no variant ${JSON.stringify(variantId)} (it has ${manifest.variants.map((v) => v.id).join(", ")})`,
      "value_error",
      variantId,
    );
  const bounds = rosterBounds(manifest);
  if (body.roster.length < bounds.min || body.roster.length > bounds.max) {
    throw invalidInput(
      ["body", "roster"],
      `${coworld.name} seats ${bounds.min}–${bounds.max} players; the roster has ${body.roster.length}`,
      "value_error",
    );
  }
  const place: SeatingPlace = { coworldId: coworld.id, leagueId: league?.id ?? null };
  const order = body.roster
    .map((slot, index) => ({ slot, index }))
    .sort((a, b) => (a.slot.slot ?? a.index) - (b.slot.slot ?? b.index));
  let champions: Candidate[] | null = null;
  const seats: (() => Seat)[] = [];
  // Every version a slot may seat, with where a refusal points.
  const seated: { versionIds: string[]; loc: (string | number)[] }[] = [];
  for (const { slot, index } of order) {
    const loc = ["body", "roster", index, "player"];
    if (slot.player.policy_ref !== undefined) {
      const refLoc = [...loc, "policy_ref"];
      const seat = await fixedSeat(
        db,
        identity,
        slot.player.policy_ref,
        refLoc,
        place,
        preauthorised,
      );
      seated.push({ versionIds: [seat.policyVersionId], loc: refLoc });
      seats.push(() => seat);
      continue;
    }
    const key = slot.player.top_n !== undefined ? "top_n" : "random";
    if (!league || !division)
      throw invalidInput(
        [...loc, key],
        `${key} draws from a division's standings: give target.league_id or target.division_id`,
        "value_error",
      );
    champions ??= await seatableOnly(
      db,
      identity,
      place,
      await divisionChampions(db, league, division),
    );
    const pool =
      slot.player.top_n !== undefined ? champions.slice(0, slot.player.top_n) : champions;
    if (pool.length === 0)
      throw invalidInput(
        [...loc, key],
        `division ${division.id} has no competing champions to draw from`,
        "value_error",
      );
    seated.push({ versionIds: pool.map((c) => c.policyVersionId), loc: [...loc, key] });
    seats.push(() => pick(pool));
  }
  const versions = [...new Set(seated.flatMap((s) => s.versionIds))];
  const bundles = versions.length
    ? await db
        .selectFrom("policy_versions")
        .select(["id", "bundle_upload_id"])
        .where("id", "in", versions)
        .execute()
    : [];
  const bundleless = new Set(bundles.filter((b) => b.bundle_upload_id === null).map((b) => b.id));
  if (body.execution_backend === "process") {
    // A version with no bundle is an image: on the process runtime its `run` would start in the
    // coworld's own directory. It plays on docker or not at all.
    for (const { versionIds, loc } of seated) {
      const without = versionIds.find((id) => bundleless.has(id));
      if (without !== undefined)
        throw invalidInput(
          loc,
          `policy version ${without} has no bundle: it runs only on the docker runtime (leave execution_backend out, or ask for "docker")`,
          "value_error",
          without,
        );
    }
  }
  const overlay = body.game_config_overlay_secret;
  if (overlay !== undefined && !(await overlaySecretExists(db, coworld.name, overlay)))
    throw invalidInput(
      ["body", "game_config_overlay_secret"],
      `coworld ${coworld.name} has no secret ${overlay}`,
      "value_error",
    );
  const leagueConfig = ladder?.ok ? ladder.settings.game_config : {};
  return {
    coworld,
    variantId: variant.id,
    league,
    division,
    gameConfig: { ...variant.game_config, ...leagueConfig, ...(body.game_config_overrides ?? {}) },
    seats,
    runtime: body.execution_backend ?? (bundleless.size === 0 ? "process" : "docker"),
  };
}
