import { defineHandlers } from "../http/handler.ts";
import type { StandingsCache } from "../leagues/standings-read.ts";
import {
  matchArtifact,
  matchPolicyLog,
  matchPolicyLogs,
  seasonMatch,
  seasonMatches,
} from "./matches.ts";
import { myMemberships, policyMemberships, seasonPolicies, submitToSeason } from "./memberships.ts";
import {
  getSeason,
  listSeasons,
  seasonConfig,
  seasonPoolConfig,
  seasonProgress,
  seasonStages,
  seasonVersions,
} from "./seasons.ts";
import {
  poolLeaderboard,
  seasonLeaderboard,
  seasonScorePolicies,
  seasonTeams,
} from "./standings.ts";

export const tournamentViewHandlers = (cache: StandingsCache) =>
  defineHandlers({
    listSeasons: async ({ identity, app }) => listSeasons(app.store.db, identity),
    getSeason: async ({ identity, params, app }) =>
      getSeason(app.store.db, identity, params.season_name),
    listSeasonMatches: async ({ identity, params, query, app }) =>
      seasonMatches(app.store.db, identity, params.season_name, query),
    listSeasonVersions: async ({ identity, params, app }) =>
      seasonVersions(app.store.db, identity, params.season_name),
    getSeasonLeaderboard: async ({ identity, params, app }) =>
      seasonLeaderboard(app.store.db, cache, identity, params.season_name),
    getSeasonPoolLeaderboard: async ({ identity, params, app }) =>
      poolLeaderboard(app.store.db, cache, identity, params),
    getSeasonScorePoliciesLeaderboard: async ({ identity, params, app }) =>
      seasonScorePolicies(app.store.db, cache, identity, params.season_name),
    submitToSeason: async ({ identity, params, body, app }) =>
      submitToSeason(
        app.store.db,
        app.events.bus,
        identity,
        params.season_name,
        body.policy_version_id,
      ),
    listSeasonPolicies: async ({ identity, params, query, app }) =>
      seasonPolicies(app.store.db, identity, params.season_name, query),
    getSeasonPoolConfig: async ({ identity, params, app }) =>
      seasonPoolConfig(app.store.db, identity, params.season_name, params.pool_name),
    listSeasonStages: async ({ identity, params, app }) =>
      seasonStages(app.store.db, identity, params.season_name),
    getSeasonProgress: async ({ identity, params, app }) =>
      seasonProgress(app.store.db, identity, params.season_name),
    listSeasonTeams: async ({ identity, params, query, app }) =>
      seasonTeams(app.store.db, cache, identity, params.season_name, query),
    getSeasonConfig: async ({ identity, params, app }) =>
      seasonConfig(app.store.db, identity, params.config_id),
    listPolicySeasonMemberships: async ({ identity, params, app }) =>
      policyMemberships(app.store.db, identity, params.policy_version_id),
    getMySeasonMemberships: async ({ identity, app }) => myMemberships(app.store.db, identity),
    getSeasonMatch: async ({ identity, params, app }) =>
      seasonMatch(app.store.db, identity, params.match_id),
    listSeasonMatchPolicyLogs: async ({ identity, params, app }) =>
      matchPolicyLogs(app.store.db, app.blobs, identity, params.match_id, params.policy_version_id),
    getSeasonMatchPolicyLog: async ({ identity, params, app }) =>
      matchPolicyLog(app.store.db, app.blobs, identity, params),
    getSeasonMatchArtifact: async ({ identity, params, app }) =>
      matchArtifact(app.store.db, app.blobs, identity, params),
  });
