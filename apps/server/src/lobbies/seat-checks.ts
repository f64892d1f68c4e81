// Checking a lobby's seats: each seat names what its kind needs (a person, a league player) and
// nothing else, and the seats not closed fit the league's coworld's roster and variant.
import type { Kysely } from "kysely";

import {
  CoworldManifest,
  rosterBounds,
  type CreateLobby,
  type LobbySeatInput,
} from "@gauntlet/core";

import { parseJson } from "../shared/clock.ts";
import { InputError, invalidInput } from "../shared/errors.ts";
import type { Database, LeaguesTable } from "../store/schema.ts";

async function leagueCoworldManifest(
  db: Kysely<Database>,
  league: LeaguesTable,
): Promise<CoworldManifest> {
  const game = await db
    .selectFrom("games")
    .select("coworld_id")
    .where("id", "=", league.game_id)
    .executeTakeFirst();
  const coworld = game?.coworld_id
    ? await db
        .selectFrom("coworlds")
        .select("manifest")
        .where("id", "=", game.coworld_id)
        .executeTakeFirst()
    : undefined;
  if (!coworld)
    throw invalidInput(["path", "league_id"], `league ${league.id}'s game has no coworld to play`);
  return CoworldManifest.parse(parseJson(coworld.manifest));
}

export async function checkSeats(
  db: Kysely<Database>,
  league: LeaguesTable,
  body: CreateLobby,
): Promise<void> {
  if (body.seats.length !== body.num_players)
    throw invalidInput(
      ["body", "seats"],
      `give one seat per player: num_players is ${body.num_players}, seats has ${body.seats.length}`,
    );
  const problems: InputError["items"] = [];
  for (const [i, seat] of body.seats.entries())
    problems.push(...(await seatProblems(db, league, seat, ["body", "seats", i])));
  if (problems.length) throw new InputError(problems);
  await checkRoster(db, league, body.seats, ["body", "seats"], body.variant_id ?? null);
}

/** The one seat kind that names each id, and what its seat lacks without it. */
const NAMED_BY_KIND: readonly { field: "user_id" | "player_id"; kind: string; missing: string }[] =
  [
    { field: "user_id", kind: "human", missing: "a human seat names the user it is reserved for" },
    { field: "player_id", kind: "league_player", missing: "a league_player seat names the player" },
  ];

export async function seatProblems(
  db: Kysely<Database>,
  league: LeaguesTable,
  seat: LobbySeatInput,
  loc: (string | number)[],
): Promise<InputError["items"]> {
  const problems: InputError["items"] = [];
  for (const { field, kind, missing } of NAMED_BY_KIND) {
    if (seat.kind === kind && seat[field] === undefined)
      problems.push({ loc: [...loc, field], msg: missing, type: "missing" });
    if (seat.kind !== kind && seat[field] !== undefined)
      problems.push({
        loc: [...loc, field],
        msg: `a ${seat.kind} seat takes no ${field}`,
        type: "value_error",
      });
  }
  if (
    seat.user_id !== undefined &&
    !(await db.selectFrom("users").select("id").where("id", "=", seat.user_id).executeTakeFirst())
  ) {
    problems.push({
      loc: [...loc, "user_id"],
      msg: `no user ${seat.user_id}`,
      type: "value_error",
    });
  }
  if (seat.player_id !== undefined) {
    const member = await db
      .selectFrom("league_policy_memberships")
      .select("id")
      .where("league_id", "=", league.id)
      .where("player_id", "=", seat.player_id)
      .executeTakeFirst();
    if (!member)
      problems.push({
        loc: [...loc, "player_id"],
        msg: `player ${seat.player_id} plays no policy in league ${league.id}`,
        type: "value_error",
      });
  }
  return problems;
}

/** The seats that are not closed fit the coworld's roster, and the variant is the coworld's. */
export async function checkRoster(
  db: Kysely<Database>,
  league: LeaguesTable,
  seats: readonly { kind: string }[],
  loc: (string | number)[],
  variantId: string | null,
): Promise<void> {
  const manifest = await leagueCoworldManifest(db, league);
  const bounds = rosterBounds(manifest);
  const played = seats.filter((s) => s.kind !== "closed").length;
  if (played < bounds.min || played > bounds.max)
    throw invalidInput(
      loc,
      `${manifest.game.name} seats ${bounds.min}–${bounds.max} players; ${played} seat(s) are not closed`,
    );
  if (variantId !== null && !manifest.variants.some((v) => v.id === variantId)) {
    throw invalidInput(
      ["body", "variant_id"],
      `${manifest.game.name} has no variant ${JSON.stringify(variantId)}`,
      "value_error",
      variantId,
    );
  }
}
