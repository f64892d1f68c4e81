import { readLeaderboard, readLeaderboardViews } from "../../league-play/leaderboard-read.ts";
import { defineHandlers } from "../handler.ts";

export const standingsHandlers = defineHandlers({
  getDivisionLeaderboard: async ({ identity, params, query, app }) => readLeaderboard(app.store.db, app.leaguePlay.standings, identity, params.division_id, query.include_recent_rounds ?? false),
  getDivisionLeaderboards: async ({ identity, params, app }) => readLeaderboardViews(app.store.db, app.leaguePlay.standings, identity, params.division_id),
});
