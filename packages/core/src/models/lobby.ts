// Lobbies: a league's players seat policies for one episode together — seats reserved for a person,
// open to anyone, fixed to a league player's champion, drawn at random, or closed — and the started
// lobby plays its episode on the runners (docs/api.md, "Lobbies, hosted play and play modules").
import { z } from "zod";

import { idSchema, LeagueId, PlayerId, Uuid } from "../ids.ts";
import { FreeForm, Timestamp } from "./common.ts";

export const LobbyId = idSchema("lobby");
const UserId = idSchema("user");

export const LobbySeatKind = z
  .enum(["human", "human_open", "league_player", "random", "closed"])
  .meta({
    id: "LobbySeatKind",
    description:
      "`human`: reserved for `user_id`, who claims it with a policy version; `human_open`: any signed-in user claims it; `league_player`: `player_id`'s champion in the league plays; `random`: a random competing champion of the league, drawn at start; `closed`: not played.",
  });

export const LobbyStatus = z
  .enum(["open", "running", "completed", "failed", "cancelled"])
  .meta({ id: "LobbyStatus" });

export const LobbySeatInput = z
  .strictObject({ kind: LobbySeatKind, user_id: UserId.optional(), player_id: PlayerId.optional() })
  .meta({ id: "LobbySeatInput" });

export const CreateLobby = z
  .strictObject({
    idempotency_key: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "A retried create with the same key answers the first lobby." }),
    variant_id: z.string().min(1).optional(),
    game_config_overrides: FreeForm.optional(),
    num_players: z.number().int().min(1).max(32),
    seats: z
      .array(LobbySeatInput)
      .min(1)
      .max(32)
      .meta({ description: "One per position, `num_players` of them." }),
  })
  .meta({ id: "CreateLobby" });

export const LobbySeat = z
  .object({
    position: z.number().int(),
    kind: LobbySeatKind,
    user_id: z
      .string()
      .nullable()
      .meta({ description: "The person the seat is reserved for or who claimed it." }),
    player_id: z.string().nullable(),
    policy_version_id: z
      .string()
      .nullable()
      .meta({ description: "What plays the seat once claimed (human seats) or started (others)." }),
    claimed_at: Timestamp.nullable(),
  })
  .meta({ id: "LobbySeat" });

export const Lobby = z
  .object({
    id: LobbyId,
    league_id: z.string(),
    creator_user_id: z.string(),
    variant_id: z.string().nullable(),
    game_config_overrides: FreeForm,
    num_players: z.number().int(),
    status: LobbyStatus,
    seats: z.array(LobbySeat),
    experience_request_id: z.string().nullable().meta({
      description: "Set at start: the experience request that plays the lobby's episode.",
    }),
    play_session_id: z.string().nullable().meta({
      description:
        "Set at launch: the live game its people join (`POST /v2/coworlds/play/session/{id}/join`).",
    }),
    episode_request_id: z.string().nullable(),
    error: z.string().nullable(),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    ended_at: Timestamp.nullable(),
  })
  .meta({ id: "Lobby" });

export const LobbyAccess = z
  .object({
    league_id: z.string(),
    can_create: z.boolean(),
    can_join: z.boolean(),
    reason: z.string().nullable().meta({ description: "Why not, when either is false." }),
  })
  .meta({ id: "LobbyAccess" });

export const ClaimLobbySeat = z
  .strictObject({
    policy_version_id: Uuid.optional().meta({
      description:
        "What plays the seat if the lobby is started; without one, you play it yourself when the lobby is launched.",
    }),
  })
  .meta({ id: "ClaimLobbySeat" });

export const UpdateLobby = z
  .strictObject({
    variant_id: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .meta({ description: "null: the league's (or the coworld's first) variant." }),
    game_config_overrides: FreeForm.optional(),
  })
  .refine((b) => b.variant_id !== undefined || b.game_config_overrides !== undefined, {
    message: "give variant_id or game_config_overrides",
  })
  .meta({ id: "UpdateLobby" });

export const LobbyParams = z.object({ lobby_id: LobbyId });
export const LobbySeatParams = LobbyParams.extend({
  position: z.coerce.number().int().min(0).max(31),
});
export const LeagueLobbyParams = z.object({ league_id: LeagueId });

export type CreateLobby = z.infer<typeof CreateLobby>;
export type UpdateLobby = z.infer<typeof UpdateLobby>;
export type LobbySeatInput = z.infer<typeof LobbySeatInput>;
export type Lobby = z.infer<typeof Lobby>;
export type LobbySeat = z.infer<typeof LobbySeat>;
export type LobbySeatKind = z.infer<typeof LobbySeatKind>;
export type LobbyStatus = z.infer<typeof LobbyStatus>;
export type LobbyAccess = z.infer<typeof LobbyAccess>;
