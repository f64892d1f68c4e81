// Episode requests and their artifacts (docs/api.md, "Groups").
import { z } from "zod";

import { idSchema, Uuid } from "../../ids.ts";
import { Bytes, QueryBoolean, queryInt } from "../../models/common.ts";
import {
  ArtifactType,
  EpisodeBundleQuery,
  EpisodeRequest,
  EpisodeRequestId,
  EpisodeRequestPage,
  EpisodeSource,
  EpisodeStats,
  PolicyArtifactEntry,
} from "../../models/episode.ts";
import { defineOperation } from "../operation.ts";

const EpisodeParams = z.object({ episode_request_id: EpisodeRequestId });

export const episodeOperations = {
  listEpisodeRequests: defineOperation({
    id: "listEpisodeRequests",
    method: "GET",
    path: "/v2/episode-requests",
    tag: "Episodes",
    summary: "List episode requests, newest first",
    auth: "optional",
    complexity: 10,
    query: z.object({
      coworld_id: idSchema("coworld").optional(),
      division_id: idSchema("division").optional(),
      round_id: idSchema("round").optional(),
      pool_id: idSchema("pool").optional(),
      player_id: idSchema("player").optional(),
      policy_version_id: Uuid.optional(),
      policy_id: Uuid.optional().meta({
        description: "Episodes in which any version of this policy held a seat.",
      }),
      mine: QueryBoolean.optional().meta({
        description:
          "`true`: only episodes in which a seat was the caller's (a policy or player they own); needs a token.",
      }),
      status: z
        .enum(["pending", "submitted", "running", "completed", "failed", "cancelled"])
        .optional(),
      source: EpisodeSource.optional().meta({
        description:
          "Only episodes of this origin: `coworld_upload` (a coworld upload's certification episode), `league` (league rounds), `experience_request` (evaluations), `manual`, `hosted_game`, `bulk_upload`.",
      }),
      // Up to 1000: the hosted service's upload client asks that many in one page.
      limit: queryInt(1, 1000).default(50),
      cursor: z.string().max(200).optional(),
      offset: queryInt(0, 1_000_000).optional().meta({
        description:
          "Rows to skip (after `cursor`, when both are given): the hosted service's clients page by offset.",
      }),
    }),
    status: 200,
    response: EpisodeRequestPage,
  }),
  listEpisodeChanges: defineOperation({
    id: "listEpisodeChanges",
    method: "GET",
    path: "/v2/episode-requests/changes",
    tag: "Episodes",
    summary: "A cursor feed of changed episode requests, oldest change first",
    auth: "optional",
    complexity: 10,
    query: z.object({
      cursor: z.string().max(200).optional(),
      limit: queryInt(1, 500).default(100),
    }),
    status: 200,
    response: EpisodeRequestPage,
  }),
  getEpisodeRequest: defineOperation({
    id: "getEpisodeRequest",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}",
    tag: "Episodes",
    summary: "Get an episode request",
    auth: "optional",
    complexity: 1,
    params: EpisodeParams,
    status: 200,
    response: EpisodeRequest,
  }),
  getEpisodeArtifact: defineOperation({
    id: "getEpisodeArtifact",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}/artifacts/{artifact_type}",
    tag: "Episodes",
    summary: "An artifact of the episode: spec, game-config, logs, error-info, results or replay",
    auth: "optional",
    complexity: 10,
    params: EpisodeParams.extend({ artifact_type: ArtifactType }),
    status: 200,
    response: Bytes,
    responseKind: "bytes",
  }),
  getEpisodeBundle: defineOperation({
    id: "getEpisodeBundle",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}/bundle",
    tag: "Episodes",
    summary: "A zip of the episode's artifacts, streamed",
    description:
      "`include` is a comma-separated list of `spec, game-config, results, replay, error_info, game_logs, player_logs, player_artifact` (the hosted service's names; ours, `logs, error-info, policy-logs, policy-artifacts`, are taken too; default: all). The files sit at the zip's root beside a `manifest.json` — `{ereq_id, status, include, files}` — that names each delivered part's files. Artifacts the episode does not have are left out; player logs and artifacts only for those who may read them, silently.",
    auth: "optional",
    complexity: 20,
    params: EpisodeParams,
    query: EpisodeBundleQuery,
    status: 200,
    response: Bytes,
    responseKind: "bytes",
  }),
  getEpisodeStats: defineOperation({
    id: "getEpisodeStats",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}/episode-stats",
    tag: "Episodes",
    summary: "Per-policy rewards and metrics of a completed episode",
    auth: "optional",
    complexity: 10,
    params: EpisodeParams,
    status: 200,
    response: EpisodeStats,
  }),
  listPolicyArtifacts: defineOperation({
    id: "listPolicyArtifacts",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}/policy-artifacts",
    tag: "Episodes",
    summary: "Which seats left a log or an artifact",
    auth: "optional",
    complexity: 10,
    params: EpisodeParams,
    status: 200,
    response: z.array(PolicyArtifactEntry),
  }),
  getPolicyLog: defineOperation({
    id: "getPolicyLog",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}/{policy_version_id}/policy-logs/{idx}",
    tag: "Episodes",
    summary:
      "The log of the player process in seat `idx` (the owner of that policy, the requester, or admins)",
    auth: "optional",
    complexity: 10,
    params: EpisodeParams.extend({
      policy_version_id: z.string().max(100),
      idx: z.coerce.number().int().min(0).max(1000),
    }),
    status: 200,
    response: z.string(),
    responseKind: "text",
  }),
  getPolicyArtifact: defineOperation({
    id: "getPolicyArtifact",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}/{policy_version_id}/policy-artifact/{idx}",
    tag: "Episodes",
    summary:
      "What the player in seat `idx` uploaded to its artifact address during the episode (the owner of that policy, the requester, or admins)",
    auth: "optional",
    complexity: 10,
    params: EpisodeParams.extend({
      policy_version_id: z.string().max(100),
      idx: z.coerce.number().int().min(0).max(1000),
    }),
    status: 200,
    response: Bytes,
    responseKind: "bytes",
  }),
} as const;
