// The `state` of an experience request (stateful coworlds, docs/api.md "Player state"): checked
// when the request is made and fixed on each episode as whose state each seat plays with; and
// the owner's routes to read a state and freeze states into an immutable snapshot.
import type { Kysely } from "kysely";

import {
  newId,
  PLAYER_STATE_QUOTA_BYTES,
  type CreateExperienceRequest,
  type PlayerState,
  type StateSnapshot,
} from "@gauntlet/core";

import { canReadState, playsWithState } from "../access/player-state.ts";
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { stateBytesOf, type EpisodeState, type SnapshotEntry } from "../episodes/player-state.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { invalidInput, notFound, ServiceError } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import type { Seat } from "./roster.ts";

/**
 * The episodes' EpisodeState (JSON), or null without `state`. Explicit state needs the overlay
 * secret and fixed `policy_ref` seats (as the hosted service's), each a version of a player: the
 * state is the player's, kept across its versions. Seats of other owners play without state.
 */
export async function planState(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  body: CreateExperienceRequest,
  coworldName: string,
  seats: readonly (() => Seat)[],
): Promise<string | null> {
  const state = body.state;
  if (state === undefined) return null;
  if (body.game_config_overlay_secret === undefined)
    throw invalidInput(
      ["body", "state"],
      "explicit state needs game_config_overlay_secret (the coworld's private input)",
      "value_error",
    );
  const loose = body.roster.findIndex((slot) => slot.player.policy_ref === undefined);
  if (loose >= 0)
    throw invalidInput(
      ["body", "roster", loose, "player"],
      "explicit state needs every seat pinned with policy_ref (state is kept per player)",
      "value_error",
    );
  if (state.type === "snapshot") {
    const snap = await db
      .selectFrom("state_snapshots")
      .select(["owner_user_id", "coworld_name"])
      .where("id", "=", state.snapshot_id)
      .executeTakeFirst();
    if (!snap || snap.coworld_name !== coworldName || !playsWithState(identity, snap.owner_user_id))
      throw invalidInput(
        ["body", "state", "snapshot_id"],
        `no snapshot ${state.snapshot_id} of yours in coworld ${coworldName}`,
        "value_error",
      );
  }
  const fixed = seats.map((choose) => choose());
  const ids = fixed.flatMap((s) => (s.playerId ? [s.playerId] : []));
  const owners = new Map(
    ids.length
      ? (
          await db
            .selectFrom("players")
            .select(["id", "owner_user_id"])
            .where("id", "in", ids)
            .execute()
        ).map((p) => [p.id, p.owner_user_id])
      : [],
  );
  const players = fixed.map((seat) => {
    const owner = seat.playerId ? owners.get(seat.playerId) : undefined;
    return seat.playerId && owner && playsWithState(identity, owner) ? seat.playerId : null;
  });
  const stored: EpisodeState = {
    type: state.type,
    ...(state.type === "snapshot" ? { snapshot_id: state.snapshot_id } : {}),
    coworld_name: coworldName,
    owner_user_id: identity.userId,
    players,
  };
  return JSON.stringify(stored);
}

export async function getPlayerState(
  db: Kysely<Database>,
  box: SecretBox,
  identity: Identity,
  coworldName: string,
  playerId: string,
): Promise<PlayerState> {
  const row = await db
    .selectFrom("player_states")
    .selectAll()
    .where("coworld_name", "=", coworldName)
    .where("player_id", "=", playerId)
    .executeTakeFirst();
  if (!row || !canReadState(identity, row.owner_user_id))
    throw notFound("player state", `${coworldName}/${playerId}`);
  return {
    coworld_name: row.coworld_name,
    player_id: row.player_id,
    size_bytes: row.size_bytes,
    sha256: row.digest,
    updated_at: row.updated_at,
    content_base64: box.open(row.ciphertext),
  };
}

export async function createStateSnapshot(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  coworldName: string,
  playerIds: readonly string[],
): Promise<StateSnapshot> {
  const rows = await db
    .selectFrom("player_states")
    .selectAll()
    .where("coworld_name", "=", coworldName)
    .where("player_id", "in", [...new Set(playerIds)])
    .execute();
  const players: SnapshotEntry[] = [];
  for (const [i, id] of [...new Set(playerIds)].entries()) {
    const row = rows.find((r) => r.player_id === id);
    // Another's player and a player without state are refused alike.
    if (!row || !playsWithState(identity, row.owner_user_id))
      throw invalidInput(
        ["body", "player_ids", i],
        `no state of a player of yours ${id} in coworld ${coworldName}`,
        "value_error",
      );
    players.push({
      player_id: id,
      sha256: row.digest,
      size_bytes: row.size_bytes,
      ciphertext: row.ciphertext,
    });
  }
  const size = players.reduce((n, p) => n + p.size_bytes, 0);
  if ((await stateBytesOf(db, identity.userId)) + size > PLAYER_STATE_QUOTA_BYTES)
    throw new ServiceError(
      507,
      "insufficient_storage",
      `your player states and snapshots would hold over ${PLAYER_STATE_QUOTA_BYTES} bytes`,
    );
  const row = {
    id: newId("stateSnapshot"),
    coworld_name: coworldName,
    owner_user_id: identity.userId,
    players: JSON.stringify(players),
    size_bytes: size,
    created_at: nowIso(),
  };
  await db.insertInto("state_snapshots").values(row).execute();
  return {
    id: row.id,
    coworld_name: coworldName,
    owner_user_id: identity.userId,
    players: parseJson<SnapshotEntry[]>(row.players).map((p) => ({
      player_id: p.player_id,
      sha256: p.sha256,
      size_bytes: p.size_bytes,
    })),
    created_at: row.created_at,
  };
}
