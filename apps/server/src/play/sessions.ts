// A play session is a game played live: slots that people (in the browser) or programs join,
// beside slots that policies play. Its episode is queued when the last human slot is joined;
// each human slot is relayed through the server (relay.ts) by the runner's human relay. A
// session ends with its episode, or when its creator terminates it. No replica keeps a session
// in memory: its state is read from its rows and its episode's.
import type { Kysely, Transaction } from "kysely";

import { newId, type CoworldManifest } from "@gauntlet/core";

import { canRunPlaySession, canSeePlaySession } from "../access/play.ts";
import {
  actsAsUser,
  isAuthenticated,
  type AuthenticatedIdentity,
  type Identity,
} from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { hashToken, newSecret } from "../auth/secrets.ts";
import { getCoworldRow } from "../coworlds/coworlds.ts";
import { cancelEpisode, createEpisode } from "../episodes/episodes.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, forbidden, ifNotFound, invalidInput, notFound } from "../shared/errors.ts";
import type {
  CoworldsTable,
  Database,
  PlaySessionKind,
  PlaySessionSeatsTable,
  PlaySessionsTable,
} from "../store/schema.ts";
import { assertRoomForSession } from "./session-limits.ts";
import { FINAL, isFinal } from "./session-status.ts";

/** A person needs longer than a policy: the episode's deadline (its job) is an hour. */
const PLAY_DEADLINE_MS = 60 * 60 * 1000;

/** A joined seat's socket, with the join token that opens it (made absolute by the routes). */
export const playerSocketPath = (sessionId: string, joinToken: string) =>
  `/v2/play-sessions/${sessionId}/socket?token=${encodeURIComponent(joinToken)}`;

/**
 * Where a joined seat is played: its socket and the coworld's player client (if it has one). The
 * routes make the addresses (addresses.ts).
 */
export interface SeatAccess {
  socketPath: string;
  client: { id: string; entry: string } | null;
}

/** A slot as the session is opened: a person's (reserved for `userId`, or open) or a policy's. */
export type SeatPlan =
  | { kind: "human"; label: string; userId: string | null; joined: boolean }
  | { kind: "policy"; label: string; policyVersionId: string; playerId: string | null };

export interface OpenSession {
  creatorUserId: string;
  coworld: CoworldsTable;
  kind: PlaySessionKind;
  variantId: string | null;
  gameConfig: Record<string, unknown>;
  allowSpectators: boolean;
  lobbyId: string | null;
  seats: SeatPlan[];
}

export interface SessionState {
  row: PlaySessionsTable;
  seats: PlaySessionSeatsTable[];
}

/**
 * Inserts the session and its slots; a slot opened as already joined (the creator's in a solo
 * game) gets its join token here, returned by position. Queues the episode when no human slot
 * is left to join.
 */
export async function openSession(
  db: Kysely<Database>,
  box: SecretBox,
  input: OpenSession,
): Promise<{ state: SessionState; joinTokens: Map<number, string> }> {
  const id = newId("playSession");
  const now = nowIso();
  const joinTokens = new Map<number, string>();
  const row: PlaySessionsTable = {
    id,
    user_id: input.creatorUserId,
    coworld_id: input.coworld.id,
    episode_request_id: null,
    kind: input.kind,
    variant_id: input.variantId,
    game_config: JSON.stringify(input.gameConfig),
    allow_spectators: input.allowSpectators ? 1 : 0,
    lobby_id: input.lobbyId,
    status: "waiting",
    error: null,
    error_type: null,
    created_at: now,
    ended_at: null,
  };
  const seats: PlaySessionSeatsTable[] = input.seats.map((plan, position) => {
    const seat: PlaySessionSeatsTable = {
      play_session_id: id,
      position,
      kind: plan.kind,
      label: plan.label,
      user_id: plan.kind === "human" ? plan.userId : null,
      policy_version_id: plan.kind === "policy" ? plan.policyVersionId : null,
      player_id: plan.kind === "policy" ? plan.playerId : null,
      join_token_hash: null,
      relay_token_hash: null,
      joined_at: null,
      connected_at: null,
    };
    if (plan.kind === "human" && plan.joined) {
      const token = newSecret("join_");
      joinTokens.set(position, token);
      seat.join_token_hash = hashToken(token);
      seat.joined_at = now;
    }
    return seat;
  });
  await db.transaction().execute(async (trx) => {
    await assertRoomForSession(trx, input.creatorUserId);
    await trx.insertInto("play_sessions").values(row).execute();
    for (const seat of seats) await trx.insertInto("play_session_seats").values(seat).execute();
  });
  await startWhenFull(db, box, id);
  return { state: await loadSession(db, id), joinTokens };
}

export async function loadSession(
  db: Kysely<Database> | Transaction<Database>,
  id: string,
): Promise<SessionState> {
  const state = await findSession(db, id);
  if (!state) throw notFound("play session", id);
  return state;
}

/** The session, or null when there is none with this id (any other failure is thrown). */
export async function findSession(
  db: Kysely<Database> | Transaction<Database>,
  id: string,
): Promise<SessionState | null> {
  const row = await db
    .selectFrom("play_sessions")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const seats = await db
    .selectFrom("play_session_seats")
    .selectAll()
    .where("play_session_id", "=", id)
    .orderBy("position")
    .execute();
  return { row, seats };
}

/** The session as it stands now: ended with its episode if that has ended. */
export async function currentSession(db: Kysely<Database>, id: string): Promise<SessionState> {
  return settleSession(db, await loadSession(db, id));
}

/** How a person is named in a slot: the local part of their email. */
export const personLabel = (email: string): string => email.split("@")[0] || email;

/** A person's slot label, read by user id ("you" for a user that cannot be read). */
export async function personLabelOf(db: Kysely<Database>, userId: string): Promise<string> {
  const user = await db
    .selectFrom("users")
    .select("email")
    .where("id", "=", userId)
    .executeTakeFirst();
  return user ? personLabel(user.email) : "you";
}

/** The coworld a create body names; 422 at `body.coworld_id` when there is none. */
export async function coworldOfBody(
  db: Kysely<Database>,
  coworldId: string,
): Promise<CoworldsTable> {
  return ifNotFound(getCoworldRow(db, coworldId), () =>
    invalidInput(["body", "coworld_id"], `no coworld ${coworldId}`, "value_error", coworldId),
  );
}

/** The manifest's variant by id, its first when none is given; 422 at `body.variant_id` when it has no such variant. */
export function variantOf(
  manifest: CoworldManifest,
  coworldName: string,
  variantId: string | null | undefined,
): CoworldManifest["variants"][number] {
  const variant =
    variantId === null || variantId === undefined
      ? manifest.variants[0]
      : manifest.variants.find((v) => v.id === variantId);
  if (!variant)
    throw invalidInput(
      ["body", "variant_id"],
      `${coworldName} has no variant ${JSON.stringify(variantId)} (it has ${manifest.variants.map((v) => v.id).join(", ")})`,
      "value_error",
      variantId,
    );
  return variant;
}

class AlreadyStarted extends Error {}

/**
 * Queues the episode once every human slot is joined: each human slot gets a relay token that
 * only the runner's human relay holds. Two joins racing to fill the last slot queue one episode:
 * the second transaction finds it set and rolls back.
 */
export async function startWhenFull(
  db: Kysely<Database>,
  box: SecretBox,
  id: string,
): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      const { row, seats } = await loadSession(trx, id);
      if (row.episode_request_id !== null || isFinal(row.status)) return;
      if (seats.some((s) => s.kind === "human" && s.joined_at === null)) return;
      const coworld = await getCoworldRow(trx, row.coworld_id);
      const relayTokens = new Map<number, string>();
      const participants = seats.map((seat) => {
        if (seat.kind === "policy")
          return {
            position: seat.position,
            policyVersionId: seat.policy_version_id,
            playerId: seat.player_id,
            displayName: seat.label,
          };
        const token = newSecret("relay_");
        relayTokens.set(seat.position, token);
        // A path: the lease makes it absolute with the public address (episodes/queue-routes.ts).
        const url = `/v2/play-sessions/${id}/relay?token=${encodeURIComponent(token)}`;
        return {
          position: seat.position,
          displayName: seat.label,
          humanRelay: box.seal(JSON.stringify({ url })),
        };
      });
      const episode = await createEpisode(trx, {
        requesterUserId: row.user_id,
        purpose: "play",
        coworld,
        gameConfig: parseJson<Record<string, unknown>>(row.game_config),
        participants,
        runtime: "process",
        deadlineMs: PLAY_DEADLINE_MS,
        // A person's game is not replayed on another runner: their moves are gone.
        maxAttempts: 1,
      });
      for (const [position, token] of relayTokens) {
        await trx
          .updateTable("play_session_seats")
          .set({ relay_token_hash: hashToken(token) })
          .where("play_session_id", "=", id)
          .where("position", "=", position)
          .execute();
      }
      const res = await trx
        .updateTable("play_sessions")
        .set({ episode_request_id: episode.episodeRequestId })
        .where("id", "=", id)
        .where("episode_request_id", "is", null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new AlreadyStarted();
    });
  } catch (error) {
    if (!(error instanceof AlreadyStarted)) throw error;
  }
}

/** A session not yet ended ends with its episode (once, by a conditional update). */
export async function settleSession(
  db: Kysely<Database>,
  state: SessionState,
): Promise<SessionState> {
  const { row } = state;
  if (isFinal(row.status) || row.episode_request_id === null) return state;
  const episode = await db
    .selectFrom("episode_requests")
    .select(["status", "error", "error_type", "updated_at"])
    .where("id", "=", row.episode_request_id)
    .executeTakeFirst();
  if (!episode || !isFinal(episode.status)) return state;
  await db
    .updateTable("play_sessions")
    .set({
      status: episode.status,
      error: episode.status === "completed" ? null : episode.error,
      error_type: episode.status === "completed" ? null : episode.error_type,
      ended_at: episode.updated_at,
    })
    .where("id", "=", row.id)
    .where("status", "not in", [...FINAL])
    .execute();
  return loadSession(db, row.id);
}

export interface JoinedSeat {
  seat: PlaySessionSeatsTable;
  token: string;
}

function guestLabel(position: number): string {
  return `Player ${position + 1}`;
}

/**
 * Joins a human slot: a signed-in person gets the slot they hold or were given (again, with a
 * new address that replaces the old one), else the first open slot; an anonymous caller always
 * gets the first open slot. 409 when it has ended or no slot is left (404 unless one may see it).
 */
export async function joinSeat(
  db: Kysely<Database>,
  box: SecretBox,
  identity: Identity,
  id: string,
): Promise<JoinedSeat> {
  const person = isAuthenticated(identity) && actsAsUser(identity) ? identity : null;
  const name = person ? await personLabelOf(db, person.userId) : null;
  // Two tries: a slot can be taken between the read and the conditional update.
  for (let attempt = 0; attempt < 2; attempt++) {
    const state = await currentSession(db, id);
    const humans = state.seats.filter((s) => s.kind === "human");
    const held = person ? humans.find((s) => s.user_id === person.userId) : undefined;
    const open = humans.find((s) => s.user_id === null && s.joined_at === null);
    const seat = held ?? open;
    // Not joinable: "not found" (an id tells a stranger nothing) unless the caller may see it.
    if ((!seat || isFinal(state.row.status)) && !maySee(identity, state))
      throw notFound("play session", id);
    if (isFinal(state.row.status))
      throw conflict(`play session ${id} has ended (${state.row.status})`, "session_ended", {
        status: state.row.status,
      });
    if (!seat) {
      const reserved = humans.some((s) => s.joined_at === null);
      throw conflict(
        reserved
          ? `the free slots of play session ${id} are reserved for other people`
          : `every slot of play session ${id} is taken`,
        "session_full",
        { player_count: state.seats.length },
      );
    }
    const token = newSecret("join_");
    const fresh = seat.joined_at === null;
    const now = nowIso();
    let update = db
      .updateTable("play_session_seats")
      .set({
        join_token_hash: hashToken(token),
        joined_at: seat.joined_at ?? now,
        user_id: seat.user_id ?? person?.userId ?? null,
        label: fresh && seat.user_id === null ? (name ?? guestLabel(seat.position)) : seat.label,
      })
      .where("play_session_id", "=", id)
      .where("position", "=", seat.position);
    // A fresh open slot is taken only if still untaken; a held one only by its person.
    update =
      seat === held
        ? update.where("user_id", "=", person?.userId ?? "")
        : update.where("user_id", "is", null).where("joined_at", "is", null);
    const res = await update.executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) continue;
    if (fresh) await startWhenFull(db, box, id);
    const now2 = await loadSession(db, id);
    const joined = now2.seats.find((s) => s.position === seat.position) ?? seat;
    return { seat: joined, token };
  }
  if (!maySee(identity, await currentSession(db, id))) throw notFound("play session", id);
  throw conflict(`the slots of play session ${id} were taken; try again`, "session_full");
}

export type SocketSide = "browser" | "game";

/**
 * Whether a socket's token opens a slot of this session, and which; `playing` when the game's
 * side has connected before (the session is playing).
 */
export async function admitSocket(
  db: Kysely<Database>,
  id: string,
  side: SocketSide,
  token: string,
): Promise<{ admitted: "ok" | "unknown" | "ended"; position: number; playing: boolean }> {
  const found = await db
    .selectFrom("play_sessions")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!found) return { admitted: "unknown", position: -1, playing: false };
  const column = side === "browser" ? "join_token_hash" : "relay_token_hash";
  const seat = await db
    .selectFrom("play_session_seats")
    .select("position")
    .where("play_session_id", "=", id)
    .where(column, "=", hashToken(token))
    .executeTakeFirst();
  if (!seat) return { admitted: "unknown", position: -1, playing: false };
  const state = await currentSession(db, id);
  const playing = state.row.status === "playing";
  if (isFinal(state.row.status)) return { admitted: "ended", position: seat.position, playing };
  // The game starts only once every person is here (the runner asks at its heartbeats).
  if (side === "browser")
    await db
      .updateTable("play_session_seats")
      .set({ connected_at: nowIso() })
      .where("play_session_id", "=", id)
      .where("position", "=", seat.position)
      .where("connected_at", "is", null)
      .execute();
  if (side === "game")
    await db
      .updateTable("play_sessions")
      .set({ status: "playing" })
      .where("id", "=", id)
      .where("status", "=", "waiting")
      .execute();
  return { admitted: "ok", position: seat.position, playing };
}

/** Whether the caller may read the session: its creator, a person seated in it, or an admin. */
export function maySee(identity: Identity, state: SessionState): identity is AuthenticatedIdentity {
  return isAuthenticated(identity) && canSeePlaySession(identity, state.row, state.seats);
}

/**
 * Ends a session now: its queued or running episode is cancelled (the runner learns it at its
 * next heartbeat and stops the game). Its creator or an admin; 409 once it has ended.
 */
export async function terminateSession(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  reason: string,
): Promise<SessionState> {
  const state = await currentSession(db, id);
  if (!maySee(identity, state)) throw notFound("play session", id);
  if (!canRunPlaySession(identity, state.row))
    throw forbidden(`only the creator of play session ${id} or an admin ends it`);
  if (isFinal(state.row.status))
    throw conflict(`play session ${id} has already ended (${state.row.status})`, "session_ended", {
      status: state.row.status,
    });
  await endSession(db, state.row, reason);
  return loadSession(db, id);
}

/**
 * Fails the session (`errorType` says why, as the API shows it) and cancels its episode, so a
 * game that goes on without a person's seat is never recorded as completed; a no-op once it has
 * ended.
 */
export async function failSession(
  db: Kysely<Database>,
  id: string,
  errorType: string,
  reason: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("play_sessions")
      .select("episode_request_id")
      .where("id", "=", id)
      .executeTakeFirst();
    const res = await trx
      .updateTable("play_sessions")
      .set({ status: "failed", error: reason, error_type: errorType, ended_at: nowIso() })
      .where("id", "=", id)
      .where("status", "not in", [...FINAL])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1 && row?.episode_request_id)
      await cancelEpisode(trx, row.episode_request_id, reason);
  });
}

/** Cancels the session and its episode, if it has one still running; a no-op once it has ended. */
export async function endSession(
  db: Kysely<Database>,
  row: PlaySessionsTable,
  reason: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const at = nowIso();
    const res = await trx
      .updateTable("play_sessions")
      .set({ status: "cancelled", error: reason, ended_at: at })
      .where("id", "=", row.id)
      .where("status", "not in", [...FINAL])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1 && row.episode_request_id !== null)
      await cancelEpisode(trx, row.episode_request_id, reason);
  });
}
