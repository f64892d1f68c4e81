// More paths of the hosted service that its clients call (softmax-cli's forum search and player
// card; coworld's upload client's commissioner patch and league seeds), served as views of
// Gauntlet's own records (docs/api.md "The hosted service's clients").
import { z } from "zod";

import { DivisionId, LeagueId, PlayerId, Uuid } from "../../ids.ts";
import { queryInt } from "../../models/common.ts";
import { ForumSearchPage, ForumSearchQuery } from "../../models/forum.ts";
import { MembershipId, MembershipStatus, MembershipSubstatus } from "../../models/league-play.ts";
import { defineOperation } from "../operation.ts";

export const PortfolioSeat = z
  .object({
    membership_id: MembershipId,
    player_id: PlayerId,
    league_id: LeagueId,
    league_name: z.string(),
    game_name: z.string().meta({ description: "The league's game (its coworld's name)." }),
    division_id: DivisionId,
    division_name: z.string(),
    policy_version_id: Uuid,
    policy_label: z.string().meta({ description: "`name:vN`, as the web shows it." }),
    status: MembershipStatus,
    substatus: MembershipSubstatus,
    is_champion: z.boolean(),
  })
  .meta({
    id: "PortfolioSeat",
    description: "One live (player, division) seat of a player the caller owns.",
  });

export const PortfolioQuery = z.object({ limit: queryInt(1, 1000).default(200) });

export const hostedClientViewOperations = {
  searchForums: defineOperation({
    id: "searchForums",
    method: "GET",
    path: "/v2/forums/search",
    tag: "Posts",
    summary:
      "Posts of every forum whose title or body contains `q` (case-insensitive), newest first",
    description:
      "The same answer as a forum's search, over all forums. `author_user_id` / `author_player_id` keep only what that user or player wrote.",
    auth: "optional",
    access: "public",
    complexity: 20,
    query: ForumSearchQuery,
    status: 200,
    response: ForumSearchPage,
  }),
  getMembershipPortfolio: defineOperation({
    id: "getMembershipPortfolio",
    method: "GET",
    path: "/v2/league-policy-memberships/portfolio",
    tag: "Leagues",
    summary: "The caller's live seats: every qualifying or competing membership of their players",
    description:
      "What softmax-cli's player card reads first; newest first. A player token sees its owner's players too.",
    auth: "required",
    access: "signed_in",
    complexity: 10,
    query: PortfolioQuery,
    status: 200,
    response: z.array(PortfolioSeat),
  }),
} as const;

export type PortfolioSeat = z.infer<typeof PortfolioSeat>;
