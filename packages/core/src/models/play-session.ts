// Hosted play sessions: a person plays a coworld in the browser against policy opponents; the
// game runs on a runner like any episode, and the person's seat is relayed through the server.
import { z } from "zod";

import { idSchema } from "../ids.ts";
import { FreeForm, Timestamp } from "./common.ts";
import { CoworldId } from "./coworld.ts";

export const PlaySessionId = idSchema("playSession");

export const PlaySessionStatus = z
  .enum(["waiting", "playing", "completed", "failed", "cancelled"])
  .meta({ id: "PlaySessionStatus" });

export const CreatePlaySession = z
  .strictObject({
    coworld_id: CoworldId,
    opponents: z.array(z.string().min(1)).min(1).max(31).meta({
      description:
        "Policy refs (a version id, `name` or `name:vN`) that play the other seats, in seat order after the person's.",
    }),
    variant_id: z.string().min(1).optional(),
    game_config_overrides: FreeForm.optional().meta({
      description: "E.g. a longer turn timeout for a person.",
    }),
  })
  .meta({ id: "CreatePlaySession" });

export const PlaySession = z
  .object({
    id: PlaySessionId,
    user_id: z.string(),
    coworld_id: z.string(),
    status: PlaySessionStatus,
    human_position: z.number().int(),
    episode_request_id: z
      .string()
      .nullable()
      .meta({ description: "The game's episode; a solo session has it from the start." }),
    join_url: z.string().nullable().meta({
      description:
        "Open it in a browser to play: the coworld's player client, connected to this game. Given once, in the answer to the create.",
    }),
    error: z.string().nullable(),
    error_type: z.string().nullable().optional().meta({
      description:
        "Why a failed session failed, as a code: its episode's error type (`player_never_connected` when a person never connected within the join timeout), `game_connection_lost` when the game's connection to a person's seat was lost and not restored in time, or `player_left` when a person's seat had no page playing it for ten minutes.",
    }),
    created_at: Timestamp,
    ended_at: Timestamp.nullable(),
  })
  .meta({ id: "PlaySession" });

export const PlaySessionParams = z.object({ play_session_id: PlaySessionId });
export const PlaySessionSocketQuery = z.object({ token: z.string().min(1).max(200) });

export const PlaySessionSocketInfo = z
  .object({
    protocol: z.literal("websocket"),
    description: z.string(),
    session: z
      .object({
        status: PlaySessionStatus,
        position: z.number().int().meta({ description: "The seat this token plays." }),
        players: z.array(z.string()).meta({
          description:
            "Each seat's name, in seat order: a policy's player or policy name, a person's name (`a person` for another person's seat when the session hides who joined), so that a page can say who it plays against.",
        }),
        error: z.string().nullable(),
        error_type: z.string().nullable(),
        scores: z
          .array(z.number())
          .nullable()
          .meta({ description: "One per seat, once the game has completed." }),
        replay_url: z.string().nullable().meta({
          description:
            "The finished game in the coworld's replay viewer (a capability that reads this one replay for 15 minutes); null until then, or when the coworld has no viewer.",
        }),
      })
      .optional()
      .meta({
        description:
          "With a seat's join token as `token`: the session as that seat's page shows it (over, with its result and replay, once it has ended).",
      }),
  })
  .meta({ id: "PlaySessionSocketInfo" });

/**
 * The one frame the server itself sends on a seat's socket (every other frame is the game's):
 * whether the game's side of the seat is connected. `restoring` while the runner's connection to
 * the server is being restored (a replica died or the connection dropped), `restored` once it is
 * back. A game that is not restored in time fails the session (`game_connection_lost`).
 */
export const PlaySocketNotice = z
  .object({
    type: z.literal("gauntlet.connection"),
    state: z.enum(["restoring", "restored"]),
    message: z.string(),
  })
  .meta({ id: "PlaySocketNotice" });

export type CreatePlaySession = z.infer<typeof CreatePlaySession>;
export type PlaySession = z.infer<typeof PlaySession>;
export type PlaySessionSocketInfo = z.infer<typeof PlaySessionSocketInfo>;
export type PlaySessionStatus = z.infer<typeof PlaySessionStatus>;
export type PlaySocketNotice = z.infer<typeof PlaySocketNotice>;
