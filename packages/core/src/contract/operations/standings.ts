// Division standings (API.md "Leagues and divisions"): served as stored when a round settles.
import { z } from "zod";

import { QueryBoolean } from "../../models/common.ts";
import { DivisionLeaderboard, DivisionLeaderboards } from "../../models/leaderboard.ts";
import { DivisionIdParams } from "../../models/league.ts";
import { defineOperation } from "../operation.ts";

export const standingsOperations = {
  getDivisionLeaderboard: defineOperation({
    id: "getDivisionLeaderboard",
    method: "GET",
    path: "/v2/divisions/{division_id}/leaderboard",
    tag: "Leagues",
    summary: "The division's standings, best first, or null when it has none",
    description:
      "Precomputed when a round settles (and when players join, leave or move). Each row's `recent_rounds` (newest first) are filled with `include_recent_rounds=true`, empty otherwise.",
    auth: "optional",
    access: "owner",
    complexity: 10,
    params: DivisionIdParams,
    query: z.object({ include_recent_rounds: QueryBoolean.optional() }),
    status: 200,
    response: DivisionLeaderboard,
  }),
  getDivisionLeaderboards: defineOperation({
    id: "getDivisionLeaderboards",
    method: "GET",
    path: "/v2/divisions/{division_id}/leaderboards",
    tag: "Leagues",
    summary: "The division's leaderboard views",
    auth: "optional",
    access: "owner",
    complexity: 20,
    params: DivisionIdParams,
    status: 200,
    response: DivisionLeaderboards,
  }),
} as const;
