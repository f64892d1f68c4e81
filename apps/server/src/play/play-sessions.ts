// Hosted play sessions: one episode with a person in seat 0 and policy opponents. The person's
// seat runs no policy: its runner relays the seat's game socket to the server (relay.ts), where
// the browser — the coworld's player client, opened from `join_url` — joins with its token.
// A session's end is read from its episode, so no replica keeps it in memory.
import { CoworldManifest, newId, rosterBounds, type CreatePlaySession, type PlaySession } from "@gauntlet/core";
import type { Kysely } from "kysely";
import { actsAsUser, isAuthenticated, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { hashToken, newSecret } from "../auth/secrets.ts";
import { getCoworldRow } from "../coworlds/coworlds.ts";
import { createEpisode } from "../episodes/episodes.ts";
import { fixedSeat, type Seat } from "../evaluations/roster.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { forbidden, invalidInput, notFound } from "../shared/errors.ts";
import type { Database, PlaySessionsTable } from "../store/schema.ts";
import { playModuleOf } from "./play-modules.ts";

const HUMAN_POSITION = 0;
/** A person needs longer than a policy: the episode's deadline (its job) is an hour. */
const PLAY_DEADLINE_MS = 60 * 60 * 1000;
const FINAL = ["completed", "failed", "cancelled"] as const;
/** A status both an episode and a session end in. */
const isFinal = (status: string): status is (typeof FINAL)[number] => (FINAL as readonly string[]).includes(status);

function view(row: PlaySessionsTable, joinUrl: string | null): PlaySession {
  return {
    id: row.id,
    user_id: row.user_id,
    coworld_id: row.coworld_id,
    status: row.status,
    human_position: row.human_position,
    episode_request_id: row.episode_request_id,
    join_url: joinUrl,
    error: row.error,
    created_at: row.created_at,
    ended_at: row.ended_at,
  };
}

const webSocketBase = (base: string) => base.replace(/^http/, "ws");

export async function createPlaySession(db: Kysely<Database>, box: SecretBox, identity: AuthenticatedIdentity, body: CreatePlaySession, base: string): Promise<PlaySession> {
  if (!actsAsUser(identity)) throw forbidden("a play session is for a person: use a user's token");
  const coworld = await getCoworldRow(db, body.coworld_id).catch(() => {
    throw invalidInput(["body", "coworld_id"], `no coworld ${body.coworld_id}`, "value_error", body.coworld_id);
  });
  const client = await playModuleOf(db, coworld.id, "player_client");
  if (!client) throw invalidInput(["body", "coworld_id"], `${coworld.name} ${coworld.version} has no player_client play module to play it with`, "value_error", body.coworld_id);
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const bounds = rosterBounds(manifest);
  const seats = body.opponents.length + 1;
  if (seats < bounds.min || seats > bounds.max) throw invalidInput(["body", "opponents"], `${coworld.name} seats ${bounds.min}–${bounds.max} players; you and ${body.opponents.length} opponent(s) are ${seats}`);
  const variant = body.variant_id === undefined ? manifest.variants[0] : manifest.variants.find((v) => v.id === body.variant_id);
  if (!variant) throw invalidInput(["body", "variant_id"], `${coworld.name} has no variant ${JSON.stringify(body.variant_id)}`, "value_error", body.variant_id);
  const opponents: Seat[] = [];
  for (const [i, ref] of body.opponents.entries()) opponents.push(await fixedSeat(db, identity, ref, ["body", "opponents", i]));

  const id = newId("playSession");
  const joinToken = newSecret("join_");
  const relayToken = newSecret("relay_");
  const relayUrl = `${webSocketBase(base)}/v2/play-sessions/${id}/relay?token=${encodeURIComponent(relayToken)}`;
  const user = await db.selectFrom("users").select("email").where("id", "=", identity.userId).executeTakeFirst();
  const row = await db.transaction().execute(async (trx) => {
    const episode = await createEpisode(trx, {
      requesterUserId: identity.userId,
      purpose: "play",
      coworld,
      gameConfig: { ...variant.game_config, ...body.game_config_overrides },
      participants: [
        { position: HUMAN_POSITION, displayName: user?.email.split("@")[0] ?? "you", humanRelay: box.seal(JSON.stringify({ url: relayUrl })) },
        ...opponents.map((seat, i) => ({ position: i + 1, policyVersionId: seat.policyVersionId, playerId: seat.playerId, displayName: seat.displayName })),
      ],
      runtime: "process",
      deadlineMs: PLAY_DEADLINE_MS,
      // A person's game is not replayed on another runner: their moves are gone.
      maxAttempts: 1,
    });
    const session: PlaySessionsTable = {
      id,
      user_id: identity.userId,
      coworld_id: coworld.id,
      episode_request_id: episode.episodeRequestId,
      human_position: HUMAN_POSITION,
      join_token_hash: hashToken(joinToken),
      relay_token_hash: hashToken(relayToken),
      status: "waiting",
      error: null,
      created_at: nowIso(),
      ended_at: null,
    };
    await trx.insertInto("play_sessions").values(session).execute();
    return session;
  });
  const socket = `${webSocketBase(base)}/v2/play-sessions/${id}/socket?token=${encodeURIComponent(joinToken)}`;
  // The address of the game is in the fragment: the browser never sends it to a server.
  const joinUrl = `${base}/v2/play-modules/${client.id}/files/${client.entry}#ws=${encodeURIComponent(socket)}`;
  return view(row, joinUrl);
}

/** A session not yet ended ends with its episode (once, by a conditional update). */
async function settle(db: Kysely<Database>, row: PlaySessionsTable): Promise<PlaySessionsTable> {
  if (isFinal(row.status)) return row;
  const episode = await db.selectFrom("episode_requests").select(["status", "error", "updated_at"]).where("id", "=", row.episode_request_id).executeTakeFirst();
  if (!episode || !isFinal(episode.status)) return row;
  await db
    .updateTable("play_sessions")
    .set({ status: episode.status, error: episode.status === "completed" ? null : episode.error, ended_at: episode.updated_at })
    .where("id", "=", row.id)
    .where("status", "not in", [...FINAL])
    .execute();
  return (await db.selectFrom("play_sessions").selectAll().where("id", "=", row.id).executeTakeFirst()) ?? row;
}

export async function getPlaySession(db: Kysely<Database>, identity: Identity, id: string): Promise<PlaySession> {
  const row = await db.selectFrom("play_sessions").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row || !isAuthenticated(identity) || (row.user_id !== identity.userId && !identity.isAdmin)) throw notFound("play session", id);
  return view(await settle(db, row), null);
}

export type SocketSide = "browser" | "game";

/** Whether a socket's token opens this side of the session; the session's state when it does. */
export async function admitSocket(db: Kysely<Database>, id: string, side: SocketSide, token: string): Promise<"ok" | "unknown" | "ended"> {
  const found = await db.selectFrom("play_sessions").selectAll().where("id", "=", id).executeTakeFirst();
  const expected = side === "browser" ? found?.join_token_hash : found?.relay_token_hash;
  if (!found || expected !== hashToken(token)) return "unknown";
  const row = await settle(db, found);
  if (isFinal(row.status)) return "ended";
  if (side === "game") await db.updateTable("play_sessions").set({ status: "playing" }).where("id", "=", id).where("status", "=", "waiting").execute();
  return "ok";
}
