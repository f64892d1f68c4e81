import { defineHandlers } from "../http/handler.ts";
import { readLeaderboard, readLeaderboardViews, type StandingsCache } from "./standings-read.ts";

/** The standings reads, served from this replica's cache of parsed standings. */
export const standingsHandlers = (cache: StandingsCache) =>
  defineHandlers({
    getDivisionLeaderboard: async ({ identity, params, query, app }) =>
      readLeaderboard(
        app.store.db,
        cache,
        identity,
        params.division_id,
        query.include_recent_rounds ?? false,
      ),
    getDivisionLeaderboards: async ({ identity, params, app }) =>
      readLeaderboardViews(app.store.db, cache, identity, params.division_id),
  });
