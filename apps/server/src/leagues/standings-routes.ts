import { defineHandlers } from "../http/handler.ts";
import { divisionPairwise, recomputeRatings, voidEpisode } from "./ledger/ledger.ts";
import { readLeaderboard, readLeaderboardViews, type StandingsCache } from "./standings-read.ts";
import { readStandingsView } from "./standings-view.ts";

/** The standings reads, served from this replica's cache of parsed standings. */
export const standingsHandlers = (cache: StandingsCache) =>
  defineHandlers({
    getDivisionStandingsView: async ({ identity, query, app }) =>
      readStandingsView(app.store.db, cache, identity, query),
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
    recomputeDivisionRatings: async ({ identity, params, body, app }) =>
      recomputeRatings(app.store.db, app.events.bus, identity, params.division_id, body.dry_run),
    voidEpisode: async ({ identity, params, body, app }) =>
      voidEpisode(app.store.db, app.events.bus, identity, params.episode_request_id, body.reason),
    getDivisionPairwise: async ({ identity, params, app }) =>
      divisionPairwise(app.store.db, identity, params.division_id),
  });
