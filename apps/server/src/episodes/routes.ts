import type { FastifyReply } from "fastify";

import type { ArtifactType } from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import { defineHandlers, REPLIED, type AppContext } from "../http/handler.ts";
import type { EpisodeRequestsTable } from "../store/schema.ts";
import { episodeBundle } from "./bundle.ts";
import { withAbsoluteReplay, withAbsoluteReplays } from "./episode-addresses.ts";
import {
  assertGameLogReader,
  derivedArtifact,
  episodeStats,
  policyArtifact,
  policyArtifacts,
  policyLog,
  readArtifact,
} from "./episode-files.ts";
import {
  episodeViews,
  getEpisodeRow,
  getEpisodeRowByJob,
  listEpisodeChanges,
  listEpisodes,
} from "./episode-reads.ts";
import { withQueuePlaces } from "./queue-position.ts";

/** An episode's artifact, derived or stored, with a file name for downloads. */
async function artifactOf(
  app: AppContext,
  row: EpisodeRequestsTable,
  type: ArtifactType,
  reply: FastifyReply,
  identity: Identity,
) {
  if (type === "logs") await assertGameLogReader(app.store.db, identity, row);
  const bytes =
    type === "spec" || type === "game-config"
      ? await derivedArtifact(app.store.db, row, type)
      : await readArtifact(app.store.db, app.blobs, row.id, type);
  reply.header(
    "content-disposition",
    `attachment; filename="${row.id}-${type}${type === "replay" || type === "logs" ? "" : ".json"}"`,
  );
  return bytes;
}

export const episodeHandlers = defineHandlers({
  listEpisodeRequests: async ({ identity, query, app, request }) => {
    const page = await listEpisodes(app.store.db, identity, query);
    const entries = await withQueuePlaces(app.store.db, app.config.queueShares, page.entries);
    return withAbsoluteReplays(app.baseUrl(request), { ...page, entries });
  },
  listEpisodeChanges: async ({ identity, query, app, request }) =>
    withAbsoluteReplays(
      app.baseUrl(request),
      await listEpisodeChanges(app.store.db, identity, query.cursor, query.limit),
    ),
  getEpisodeRequest: async ({ identity, params, app, request }) => {
    const row = await getEpisodeRow(app.store.db, identity, params.episode_request_id);
    const [view] = await withQueuePlaces(
      app.store.db,
      app.config.queueShares,
      await episodeViews(app.store.db, [row]),
    );
    if (!view) throw new Error("unreachable: one row gives one view");
    return withAbsoluteReplay(app.baseUrl(request), view);
  },
  getEpisodeArtifact: async ({ identity, params, app, reply }) => {
    const row = await getEpisodeRow(app.store.db, identity, params.episode_request_id);
    return artifactOf(app, row, params.artifact_type, reply, identity);
  },
  getJobArtifact: async ({ identity, params, app, reply }) => {
    const row = await getEpisodeRowByJob(app.store.db, identity, params.job_id);
    return artifactOf(app, row, params.artifact_type, reply, identity);
  },
  getEpisodeBundle: async ({ identity, params, query, app, reply }) => {
    const row = await getEpisodeRow(app.store.db, identity, params.episode_request_id);
    const stream = await episodeBundle(app.store.db, app.blobs, identity, row, query.include);
    void reply
      .code(200)
      .type("application/zip")
      .header("content-disposition", `attachment; filename="${row.id}.zip"`)
      .send(stream);
    return REPLIED;
  },
  getEpisodeStats: async ({ identity, params, app }) =>
    episodeStats(
      app.store.db,
      await getEpisodeRow(app.store.db, identity, params.episode_request_id),
    ),
  listPolicyArtifacts: async ({ identity, params, app }) =>
    policyArtifacts(
      app.store.db,
      await getEpisodeRow(app.store.db, identity, params.episode_request_id),
    ),
  getPolicyLog: async ({ identity, params, app }) =>
    policyLog(
      app.store.db,
      app.blobs,
      identity,
      await getEpisodeRow(app.store.db, identity, params.episode_request_id),
      params.policy_version_id,
      params.idx,
    ),
  getPolicyArtifact: async ({ identity, params, app }) =>
    policyArtifact(
      app.store.db,
      app.blobs,
      identity,
      await getEpisodeRow(app.store.db, identity, params.episode_request_id),
      params.policy_version_id,
      params.idx,
    ),
});
