import { defineHandlers } from "../http/handler.ts";
import { getCampaignBoard, getCampaignHistory, migrateCampaignBoard } from "./board.ts";

export const campaignHandlers = defineHandlers({
  getCampaignBoard: async ({ identity, params, app }) =>
    getCampaignBoard(app.store.db, identity, params.league_id),
  getCampaignHistory: async ({ identity, params, app }) =>
    getCampaignHistory(app.store.db, identity, params.league_id),
  migrateCampaignBoard: async ({ identity, params, body, app }) =>
    migrateCampaignBoard(app.store.db, identity, params.league_id, body),
});
