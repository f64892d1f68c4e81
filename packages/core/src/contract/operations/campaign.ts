// The campaign board (docs/api.md, "The campaign board in short" migrate-board).
import { z } from "zod";

import { CampaignBoard, CampaignHistoryEntry, MigrateBoardReport } from "../../models/campaign.ts";
import { LeagueIdParams } from "../../models/league.ts";
import { MigrateBoardRequest } from "../../models/spec-records.ts";
import { defineOperation } from "../operation.ts";

export const campaignOperations = {
  getCampaignBoard: defineOperation({
    id: "getCampaignBoard",
    method: "GET",
    path: "/v2/leagues/{league_id}/campaign",
    tag: "Leagues",
    summary: "The league's campaign board: geometry, cells with their owner, and history",
    description:
      "Settled rounds move territory: the winner (rank 1) of each completed round captures one cell — the first unowned cell in row-major order, or else the first cell held by someone else. Rounds are applied in the order they completed.",
    auth: "optional",
    access: "owner",
    complexity: 10,
    params: LeagueIdParams,
    status: 200,
    response: CampaignBoard,
  }),
  getCampaignHistory: defineOperation({
    id: "getCampaignHistory",
    method: "GET",
    path: "/v2/leagues/{league_id}/campaign/history",
    tag: "Leagues",
    summary: "The captures that settled rounds wrote on the campaign board, newest first",
    auth: "optional",
    access: "owner",
    complexity: 10,
    params: LeagueIdParams,
    status: 200,
    response: z.array(CampaignHistoryEntry),
  }),
  migrateCampaignBoard: defineOperation({
    id: "migrateCampaignBoard",
    method: "POST",
    path: "/v2/leagues/{league_id}/campaign/migrate-board",
    tag: "Leagues",
    summary: "Re-carve the campaign board to the current geometry",
    description:
      "Body `{dry_run: boolean = true}`, JSON `null`, or none (a dry run). A dry run returns the report and changes nothing; `dry_run: false` re-carves the board in one transaction, each new cell taking the owner that covers most of it on the old board, and the history carried over. Commissioner or admin only.",
    auth: "required",
    access: "owner",
    complexity: 50,
    params: LeagueIdParams,
    body: MigrateBoardRequest,
    bodyOptional: true,
    status: 200,
    response: MigrateBoardReport,
  }),
} as const;
