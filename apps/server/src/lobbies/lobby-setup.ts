// Setting up a lobby: opened in a league with typed seats, changed by its managers while it is
// open (variant, game settings, a seat's kind), or cancelled.
import type { Kysely } from "kysely";

import {
  newId,
  type CreateLobby,
  type Lobby,
  type LobbySeatInput,
  type UpdateLobby,
} from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { getVisibleLeagueRow } from "../leagues/leagues.ts";
import { nowIso } from "../shared/clock.ts";
import { InputError, notFound } from "../shared/errors.ts";
import type { Database, LobbiesTable, LobbySeatsTable } from "../store/schema.ts";
import { managedOpenLobby, refuseNonPersons, updateOpenLobby, whileOpen } from "./lobby-guards.ts";
import { getLobby } from "./lobby-reads.ts";
import { seatsOf, view } from "./lobby-rows.ts";
import { checkRoster, checkSeats, seatProblems } from "./seat-checks.ts";

export async function createLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  body: CreateLobby,
): Promise<Lobby> {
  refuseNonPersons(identity);
  const league = await getVisibleLeagueRow(db, identity, leagueId);
  await checkSeats(db, league, body);
  const row: LobbiesTable = {
    id: newId("lobby"),
    league_id: league.id,
    creator_user_id: identity.userId,
    variant_id: body.variant_id ?? null,
    game_config_overrides: JSON.stringify(body.game_config_overrides ?? {}),
    num_players: body.num_players,
    status: "open",
    experience_request_id: null,
    episode_request_id: null,
    play_session_id: null,
    error: null,
    created_at: nowIso(),
    started_at: null,
    ended_at: null,
  };
  const seats: LobbySeatsTable[] = body.seats.map((s, position) => ({
    lobby_id: row.id,
    position,
    kind: s.kind,
    user_id: s.user_id ?? null,
    player_id: s.player_id ?? null,
    policy_version_id: null,
    claimed_at: null,
  }));
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("lobbies").values(row).execute();
    for (const seat of seats) await trx.insertInto("lobby_seats").values(seat).execute();
  });
  return view(row, seats);
}

export async function updateLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  body: UpdateLobby,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "changes it");
  const variantId = body.variant_id === undefined ? row.variant_id : body.variant_id;
  await checkRoster(db, league, await seatsOf(db, id), ["body"], variantId);
  await updateOpenLobby(db, id, {
    variant_id: variantId,
    game_config_overrides:
      body.game_config_overrides === undefined
        ? row.game_config_overrides
        : JSON.stringify(body.game_config_overrides),
  });
  return getLobby(db, identity, id);
}

export async function setSeat(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  position: number,
  seat: LobbySeatInput,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "changes its seats");
  const seats = await seatsOf(db, id);
  if (!seats.some((s) => s.position === position))
    throw notFound("seat", `${position} of lobby ${id}`);
  const problems = await seatProblems(db, league, seat, ["body"]);
  if (problems.length) throw new InputError(problems);
  await checkRoster(
    db,
    league,
    seats.map((s) => (s.position === position ? seat : s)),
    ["body", "kind"],
    row.variant_id,
  );
  // A changed seat starts unclaimed: whoever held it claims again if it is still theirs to claim.
  await db
    .updateTable("lobby_seats")
    .set({
      kind: seat.kind,
      user_id: seat.user_id ?? null,
      player_id: seat.player_id ?? null,
      policy_version_id: null,
      claimed_at: null,
    })
    .where("lobby_id", "=", id)
    .where("position", "=", position)
    .where(whileOpen(id))
    .execute();
  return getLobby(db, identity, id);
}

export async function cancelLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  await managedOpenLobby(db, identity, id, "cancels it");
  await updateOpenLobby(db, id, { status: "cancelled", ended_at: nowIso() });
  return getLobby(db, identity, id);
}
