// Hosted games (the hosted service's `/v2/coworlds/play/…` paths): a coworld played live by
// people and programs that join its slots — in the browser through the coworld's player
// client, or any program speaking the player protocol to `player_url`. Lobbies launch one for
// their seats. Hosted replays open a recorded episode in the coworld's replay viewer.
import { z } from "zod";

import { FreeForm, Timestamp } from "./common.ts";
import { CoworldId } from "./coworld.ts";
import { PlaySessionId, PlaySessionStatus } from "./play-session.ts";

export const HostedGameCreate = z
  .strictObject({
    coworld_id: CoworldId,
    variant_id: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .meta({ description: "The manifest's variant; its first when absent." }),
    game_config: FreeForm.nullable().optional().meta({
      description:
        "Overrides of the variant's game config (a longer `turn_timeout_ms` for people, say).",
    }),
    allow_spectators: z.boolean().nullable().optional().meta({
      description: "Whether `lobby_url` shows the game to anyone with the address. Default false.",
    }),
    player_count: z
      .number()
      .int()
      .min(1)
      .max(32)
      .nullable()
      .optional()
      .meta({ description: "How many slots; the coworld's smallest roster when absent." }),
  })
  .meta({ id: "HostedGameCreate" });

export const HostedGameCreateResponse = z
  .object({
    session_id: PlaySessionId,
    join_url: z.string().meta({
      description:
        "A page that joins the next free slot and opens the coworld's player client on it.",
    }),
    lobby_url: z
      .string()
      .meta({ description: "A page with the slots, who has joined, and the game's state." }),
    player_count: z.number().int(),
    global_url: z.string().nullable().meta({
      description: "A live spectator view; null (this service has no live global stream yet).",
    }),
  })
  .meta({ id: "HostedGameCreateResponse" });

export const HostedGamePlayer = z
  .object({
    slot: z.number().int(),
    label: z.string(),
    user_id: z.string().nullable(),
    player_id: z.string().nullable(),
    player_name: z
      .string()
      .nullable()
      .meta({ description: "The policy that plays the slot, for a slot a policy plays." }),
    joined_at: Timestamp.nullable(),
  })
  .meta({ id: "HostedGamePlayer" });

export const HostedGameJoinResponse = z
  .object({
    player_url: z.string().meta({
      description:
        "The slot's WebSocket (the coworld's player protocol). A new join of the same slot gives a new address and closes the old one.",
    }),
    slot: z.number().int(),
    player: HostedGamePlayer,
    client_url: z.string().nullable().meta({
      description:
        "The coworld's player client in the browser, connected to this slot; null when the version has none.",
    }),
  })
  .meta({ id: "HostedGameJoinResponse" });

export const HostedGameSession = z
  .object({
    session_id: PlaySessionId,
    coworld_id: z.string(),
    variant_id: z.string().nullable(),
    created_by_user_id: z.string(),
    lobby_id: z.string().nullable(),
    status: PlaySessionStatus,
    player_count: z.number().int(),
    players: z.array(HostedGamePlayer),
    episode_request_id: z
      .string()
      .nullable()
      .meta({ description: "Set when the last slot is joined and the game starts." }),
    join_url: z.string(),
    lobby_url: z.string(),
    global_url: z.string().nullable(),
    allow_spectators: z.boolean(),
    error: z.string().nullable(),
    created_at: Timestamp,
    ended_at: Timestamp.nullable(),
  })
  .meta({ id: "HostedGameSession" });

export const HostedGameList = z.array(HostedGameSession).meta({ id: "HostedGameList" });

export const HostedGameParams = z.object({ session_id: PlaySessionId });

export const ReplaySessionCreate = z
  .strictObject({
    coworld_id: CoworldId,
    episode_id: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .meta({ description: "The episode the replay is of (informational)." }),
    replay_uri: z.url({ protocol: /^https?$/ }).meta({
      description:
        "Where the viewer reads the replay from (an episode's replay artifact address, say).",
    }),
  })
  .meta({ id: "ReplaySessionCreate" });

export const ReplaySessionResponse = z
  .object({
    viewer_url: z.string().meta({
      description: "The coworld's replay viewer with the replay's address in its fragment.",
    }),
    ready: z.boolean(),
  })
  .meta({ id: "ReplaySessionResponse" });

export const ReplayCapabilityParams = z.object({
  capability: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.-]+$/),
});

export type HostedGameCreate = z.infer<typeof HostedGameCreate>;
export type HostedGameCreateResponse = z.infer<typeof HostedGameCreateResponse>;
export type HostedGamePlayer = z.infer<typeof HostedGamePlayer>;
export type HostedGameJoinResponse = z.infer<typeof HostedGameJoinResponse>;
export type HostedGameSession = z.infer<typeof HostedGameSession>;
export type ReplaySessionCreate = z.infer<typeof ReplaySessionCreate>;
export type ReplaySessionResponse = z.infer<typeof ReplaySessionResponse>;
