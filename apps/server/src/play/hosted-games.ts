// Hosted games (`/v2/coworlds/play/…`): every slot is joined by a person or a program, and the
// game starts when the last one is. Hosted replays open a recorded episode in the coworld's
// replay viewer. The shapes are the hosted service's (see the contract).
import type { Kysely } from "kysely";

import {
  CoworldManifest,
  rosterBounds,
  type HostedGameCreate,
  type HostedGameCreateResponse,
  type HostedGamePlayer,
  type HostedGameSession,
} from "@gauntlet/core";

import { actsAsUser, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { parseJson } from "../shared/clock.ts";
import { forbidden, invalidInput, notFound } from "../shared/errors.ts";
import type { Database, PlaySessionSeatsTable } from "../store/schema.ts";
import { playModuleOf } from "./play-modules.ts";
import type { PlayRelay } from "./relay.ts";
import {
  coworldOfBody,
  findSession,
  joinSeat,
  loadSession,
  maySee,
  openSession,
  playerSocketPath,
  settleSession,
  terminateSession,
  variantOf,
  type SeatAccess,
  type SessionState,
} from "./sessions.ts";

// A session's pages; the routes make the addresses absolute (addresses.ts).
export const joinPagePath = (id: string) => `/v2/coworlds/play/session/${id}/play`;
export const lobbyPagePath = (id: string) => `/v2/coworlds/play/session/${id}/lobby`;

export function playerOf(seat: PlaySessionSeatsTable): HostedGamePlayer {
  const policy = seat.kind === "policy";
  return {
    slot: seat.position,
    label: seat.label,
    user_id: seat.user_id,
    player_id: seat.player_id,
    player_name: policy ? seat.label : null,
    joined_at: seat.joined_at,
  };
}

/** The session as served, its `join_url` and `lobby_url` paths. */
export function hostedView(state: SessionState): HostedGameSession {
  const { row, seats } = state;
  return {
    session_id: row.id,
    coworld_id: row.coworld_id,
    variant_id: row.variant_id,
    created_by_user_id: row.user_id,
    lobby_id: row.lobby_id,
    status: row.status,
    player_count: seats.length,
    players: seats.map(playerOf),
    episode_request_id: row.episode_request_id,
    join_url: joinPagePath(row.id),
    lobby_url: lobbyPagePath(row.id),
    global_url: null,
    allow_spectators: row.allow_spectators === 1,
    error: row.error,
    created_at: row.created_at,
    ended_at: row.ended_at,
  };
}

export async function createHostedGame(
  db: Kysely<Database>,
  box: SecretBox,
  identity: AuthenticatedIdentity,
  body: HostedGameCreate,
): Promise<HostedGameCreateResponse> {
  if (!actsAsUser(identity)) throw forbidden("hosting a game is for a person: use a user's token");
  const coworld = await coworldOfBody(db, body.coworld_id);
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const variant = variantOf(manifest, coworld.name, body.variant_id);
  const bounds = rosterBounds(manifest);
  const count = body.player_count ?? bounds.min;
  if (count < bounds.min || count > bounds.max)
    throw invalidInput(
      ["body", "player_count"],
      `${coworld.name} seats ${bounds.min}–${bounds.max} players`,
      "value_error",
      count,
    );
  const { state } = await openSession(db, box, {
    creatorUserId: identity.userId,
    coworld,
    kind: "hosted",
    variantId: variant.id,
    gameConfig: { ...variant.game_config, ...(body.game_config ?? {}) },
    allowSpectators: body.allow_spectators ?? false,
    lobbyId: null,
    seats: Array.from({ length: count }, () => ({
      kind: "human" as const,
      label: "open",
      userId: null,
      joined: false,
    })),
  });
  const view = hostedView(state);
  return {
    session_id: view.session_id,
    join_url: view.join_url,
    lobby_url: view.lobby_url,
    player_count: view.player_count,
    global_url: view.global_url,
  };
}

export async function getHostedGame(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<HostedGameSession> {
  const state = await findSession(db, id);
  if (!state || !maySee(identity, state)) throw notFound("play session", id);
  return hostedView(await settleSession(db, state));
}

export async function listHostedGames(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
): Promise<HostedGameSession[]> {
  if (!actsAsUser(identity)) throw forbidden("play sessions are a person's: use a user's token");
  const seated = db
    .selectFrom("play_session_seats")
    .select("play_session_id")
    .where("user_id", "=", identity.userId);
  const rows = await db
    .selectFrom("play_sessions")
    .selectAll()
    .where((eb) => eb.or([eb("user_id", "=", identity.userId), eb("id", "in", seated)]))
    .orderBy("created_at", "desc")
    .limit(100)
    .execute();
  if (rows.length === 0) return [];
  // Two reads for the page, not one per session; only a session still open reads its episode.
  const seats = await db
    .selectFrom("play_session_seats")
    .selectAll()
    .where(
      "play_session_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("position")
    .execute();
  const out: HostedGameSession[] = [];
  for (const row of rows) {
    const state = { row, seats: seats.filter((s) => s.play_session_id === row.id) };
    out.push(hostedView(await settleSession(db, state)));
  }
  return out;
}

/** A joined slot; the route makes its `player_url` and `client_url` from `access`. */
export interface HostedJoin {
  slot: number;
  player: HostedGamePlayer;
  access: SeatAccess;
}

export async function joinHostedGame(
  db: Kysely<Database>,
  box: SecretBox,
  identity: Identity,
  id: string,
): Promise<HostedJoin> {
  const { row } = await loadSession(db, id);
  const { seat, token } = await joinSeat(db, box, identity, id);
  const client = await playModuleOf(db, row.coworld_id, "player_client");
  return {
    slot: seat.position,
    player: playerOf(seat),
    access: { socketPath: playerSocketPath(id, token), client: client ?? null },
  };
}

export async function terminateHostedGame(
  db: Kysely<Database>,
  relay: Pick<PlayRelay, "closeSession">,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<HostedGameSession> {
  const state = await terminateSession(db, identity, id, `terminated by ${identity.email}`);
  relay.closeSession(id, "the session was terminated");
  return hostedView(state);
}
