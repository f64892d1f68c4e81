// Player state of stateful coworlds (docs/api.md, "Player state"): each player's live state in a
// coworld name, sealed at rest, handed to the game when a runner takes a stateful episode and
// replaced by what the game left when it completes. An episode's `state` (EpisodeState, fixed
// when it is requested) names, seat by seat, whose state it plays with; a seat that is not the
// requester's own has none, so nobody's state is read or written by another's request.
import { createHash } from "node:crypto";

import type { Kysely } from "kysely";

import { MAX_PLAYER_STATE_BYTES, PLAYER_STATE_QUOTA_BYTES, type LeasedJob } from "@gauntlet/core";

import type { SecretBox } from "../auth/secret-box.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import type { Database, EpisodeRequestsTable } from "../store/schema.ts";

/** What an episode plays with, stored on it: by seat, the player whose state it is (or null). */
export interface EpisodeState {
  type: "head" | "snapshot";
  snapshot_id?: string;
  coworld_name: string;
  owner_user_id: string;
  players: (string | null)[];
}

export interface SnapshotEntry {
  player_id: string;
  sha256: string;
  size_bytes: number;
  ciphertext: string;
}

export const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The bytes a user's states and snapshots hold now. */
export async function stateBytesOf(db: Kysely<Database>, userId: string): Promise<number> {
  const heads = await db
    .selectFrom("player_states")
    .select((eb) => eb.fn.sum<number>("size_bytes").as("n"))
    .where("owner_user_id", "=", userId)
    .executeTakeFirst();
  const snaps = await db
    .selectFrom("state_snapshots")
    .select((eb) => eb.fn.sum<number>("size_bytes").as("n"))
    .where("owner_user_id", "=", userId)
    .executeTakeFirst();
  return Number(heads?.n ?? 0) + Number(snaps?.n ?? 0);
}

async function headOf(
  db: Kysely<Database>,
  coworldName: string,
  playerId: string,
): Promise<string | null> {
  const head = await db
    .selectFrom("player_states")
    .select("ciphertext")
    .where("coworld_name", "=", coworldName)
    .where("player_id", "=", playerId)
    .executeTakeFirst();
  return head?.ciphertext ?? null;
}

/** Each seat's start state for a runner's lease. */
export async function stateForLease(
  db: Kysely<Database>,
  box: SecretBox,
  episode: EpisodeRequestsTable,
): Promise<LeasedJob["player_state"]> {
  if (!episode.state) return undefined;
  const state = parseJson<EpisodeState>(episode.state);
  let snapshot: SnapshotEntry[] = [];
  if (state.type === "snapshot" && state.snapshot_id !== undefined) {
    const row = await db
      .selectFrom("state_snapshots")
      .select("players")
      .where("id", "=", state.snapshot_id)
      .executeTakeFirst();
    snapshot = row ? parseJson<SnapshotEntry[]>(row.players) : [];
  }
  const out: NonNullable<LeasedJob["player_state"]> = [];
  for (const playerId of state.players) {
    if (playerId === null) {
      out.push(null);
      continue;
    }
    const sealed =
      state.type === "snapshot"
        ? (snapshot.find((p) => p.player_id === playerId)?.ciphertext ?? null)
        : await headOf(db, state.coworld_name, playerId);
    out.push({
      content_base64: sealed === null ? null : box.open(sealed),
      keep: state.type === "head",
    });
  }
  return out;
}

/**
 * After a `head` episode completed: each kept seat's new state (artifact `state-{slot}` the
 * runner uploaded) becomes its player's head. A state over the size limit, or one that would
 * take its owner past the quota, is not kept (the old head stays). The uploads are then dropped:
 * the state lives sealed in its row, not as an episode's file.
 */
export async function keepStates(
  db: Kysely<Database>,
  box: SecretBox,
  blobs: BlobStore,
  episodeId: string,
): Promise<void> {
  const episode = await db
    .selectFrom("episode_requests")
    .select("state")
    .where("id", "=", episodeId)
    .executeTakeFirst();
  if (!episode?.state) return;
  const state = parseJson<EpisodeState>(episode.state);
  if (state.type === "head") await keepHeads(db, box, blobs, episodeId, state);
  await db
    .deleteFrom("artifacts")
    .where("episode_request_id", "=", episodeId)
    .where("name", "like", "state-%")
    .execute();
}

async function keepHeads(
  db: Kysely<Database>,
  box: SecretBox,
  blobs: BlobStore,
  episodeId: string,
  state: EpisodeState,
): Promise<void> {
  for (const [slot, playerId] of state.players.entries()) {
    if (playerId === null) continue;
    const artifact = await db
      .selectFrom("artifacts")
      .select("sha256")
      .where("episode_request_id", "=", episodeId)
      .where("name", "=", `state-${slot}`)
      .executeTakeFirst();
    const bytes = artifact ? await blobs.get(artifact.sha256) : null;
    if (bytes === null) continue;
    if (bytes.length > MAX_PLAYER_STATE_BYTES) continue;
    const old = await db
      .selectFrom("player_states")
      .select("size_bytes")
      .where("coworld_name", "=", state.coworld_name)
      .where("player_id", "=", playerId)
      .executeTakeFirst();
    const used = (await stateBytesOf(db, state.owner_user_id)) - (old?.size_bytes ?? 0);
    if (used + bytes.length > PLAYER_STATE_QUOTA_BYTES) continue;
    const row = {
      coworld_name: state.coworld_name,
      player_id: playerId,
      owner_user_id: state.owner_user_id,
      ciphertext: box.seal(bytes.toString("base64")),
      digest: sha256Of(bytes),
      size_bytes: bytes.length,
      updated_at: nowIso(),
    };
    await db
      .insertInto("player_states")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["coworld_name", "player_id"]).doUpdateSet({
          ciphertext: row.ciphertext,
          digest: row.digest,
          size_bytes: row.size_bytes,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }
}
