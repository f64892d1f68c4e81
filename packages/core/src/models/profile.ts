// Players' public profiles: how a player shows itself (display name, avatar, a short bio),
// its policies and its memberships in the leagues the caller can see. What happened to it
// is the feed: GET /v2/competition-events?player_id=….
import { z } from "zod";

import { PlayerId } from "../ids.ts";
import { Timestamp } from "./common.ts";
import { LeaguePolicyMembership } from "./league-play.ts";

const AvatarUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .meta({ description: "An http(s) address of an image." });

export const PlayerProfile = z
  .object({
    id: PlayerId,
    name: z.string(),
    display_name: z
      .string()
      .meta({ description: "The chosen display name, or the player's name." }),
    avatar_url: z.string().nullable(),
    bio: z.string().nullable(),
    created_at: Timestamp,
    policies: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        versions: z.array(
          z.object({ id: z.string(), version: z.number().int(), created_at: Timestamp }),
        ),
      }),
    ),
    memberships: z.array(LeaguePolicyMembership).meta({
      description:
        "Memberships in the leagues the caller can see (public ones for everyone), newest first.",
    }),
  })
  .meta({ id: "PlayerProfile" });

export const UpdatePlayerProfile = z
  .strictObject({
    display_name: z.string().trim().min(1).max(100).nullable().optional(),
    avatar_url: AvatarUrl.nullable().optional(),
    bio: z.string().trim().max(2000).nullable().optional(),
  })
  .meta({ id: "UpdatePlayerProfile", description: "Fields left out stay; null clears one." });

export const PlayerIdParams = z.object({ player_id: PlayerId });

export type PlayerProfile = z.infer<typeof PlayerProfile>;
export type UpdatePlayerProfile = z.infer<typeof UpdatePlayerProfile>;
