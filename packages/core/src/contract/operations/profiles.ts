// Players' public profiles (docs/api.md, "Groups"; the feed of what happened is
// GET /v2/competition-events).
import { PlayerIdParams, PlayerProfile, UpdatePlayerProfile } from "../../models/profile.ts";
import { defineOperation } from "../operation.ts";

export const profileOperations = {
  getPlayerProfile: defineOperation({
    id: "getPlayerProfile",
    method: "GET",
    path: "/v2/players/{player_id}/profile",
    tag: "Players",
    summary:
      "A player's public profile: display name, avatar, bio, policies and league memberships",
    description:
      "Public. Memberships are those in leagues the caller can see; the player's events are `GET /v2/competition-events?player_id=…`.",
    auth: "optional",
    access: "public",
    complexity: 10,
    params: PlayerIdParams,
    status: 200,
    response: PlayerProfile,
  }),
  updatePlayerProfile: defineOperation({
    id: "updatePlayerProfile",
    method: "PATCH",
    path: "/v2/players/{player_id}/profile",
    tag: "Players",
    summary:
      "Set a player's display name, avatar or bio (its owner, the player itself, or an admin)",
    auth: "required",
    access: "owner",
    complexity: 10,
    params: PlayerIdParams,
    body: UpdatePlayerProfile,
    status: 200,
    response: PlayerProfile,
  }),
} as const;
