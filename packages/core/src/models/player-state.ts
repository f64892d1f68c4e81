// Stateful coworlds (docs/api.md, "Player state"): a player's live state in a coworld (`head`),
// kept across episodes and policy versions, and immutable checkpoints of it (`snapshot`).
import { z } from "zod";

import { idSchema } from "../ids.ts";
import { Timestamp } from "./common.ts";

/** The most one player's state may hold, in bytes. */
export const MAX_PLAYER_STATE_BYTES = 64 * 1024;

/** The most one user's states and snapshots may hold together, in bytes. */
export const PLAYER_STATE_QUOTA_BYTES = 16 * 1024 * 1024;

export const StateSnapshotId = idSchema("stateSnapshot");

export const EpisodeStateRequest = z
  .discriminatedUnion("type", [
    z.strictObject({ type: z.literal("head") }),
    z.strictObject({ type: z.literal("snapshot"), snapshot_id: StateSnapshotId }),
  ])
  .meta({
    id: "EpisodeStateRequest",
    description:
      "`head`: each seat's player starts from its live state and the game's new state becomes it; `snapshot`: each seat's player starts from the snapshot's state, and nothing is kept. Needs `game_config_overlay_secret` and a `policy_ref` in every roster slot.",
  });
export type EpisodeStateRequest = z.infer<typeof EpisodeStateRequest>;

export const PlayerStateRecord = z
  .object({
    coworld_name: z.string(),
    player_id: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    updated_at: Timestamp,
  })
  .meta({ id: "PlayerStateRecord" });

export const PlayerState = PlayerStateRecord.extend({
  content_base64: z.string().meta({ description: "The state's bytes, base64." }),
}).meta({ id: "PlayerState" });

export const StateSnapshot = z
  .object({
    id: StateSnapshotId,
    coworld_name: z.string(),
    owner_user_id: z.string(),
    players: z.array(PlayerStateRecord.omit({ updated_at: true, coworld_name: true })),
    created_at: Timestamp,
  })
  .meta({ id: "StateSnapshot" });

export const CreateStateSnapshot = z
  .strictObject({ player_ids: z.array(z.string().min(1)).min(1).max(32) })
  .meta({ id: "CreateStateSnapshot" });

export const PlayerStateParams = z.strictObject({
  coworld_name: z.string().min(1),
  player_id: z.string().min(1),
});
export const CoworldNameParams = z.strictObject({ coworld_name: z.string().min(1) });
export type PlayerState = z.infer<typeof PlayerState>;
export type StateSnapshot = z.infer<typeof StateSnapshot>;
