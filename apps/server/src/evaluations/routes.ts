// The handlers of the experience-request operations.
import type { FastifyRequest } from "fastify";

import type { ExperienceRequestDetail } from "@gauntlet/core";

import { withAbsoluteReplay } from "../episodes/episode-addresses.ts";
import { withQueuePlaces } from "../episodes/queue-position.ts";
import { defineHandlers, type AppContext } from "../http/handler.ts";
import { signedPutHandler, withAbsoluteUploadUrl } from "../http/upload-handlers.ts";
import {
  checkBulkUploadAddress,
  completeBulkUpload,
  putBulkUploadFile,
  startBulkUpload,
} from "./bulk-upload.ts";
import {
  cancelExperienceRequest,
  createExperienceRequest,
  getExperienceRequest,
  listExperienceRequestEpisodes,
  listExperienceRequests,
} from "./experience-requests.ts";
import { createStateSnapshot, getPlayerState } from "./state-request.ts";

/**
 * The request with its queued episodes placed on the work queue (queue-position.ts) and its
 * episodes' replay paths made absolute under the public base.
 */
async function shown(
  app: AppContext,
  request: FastifyRequest,
  detail: ExperienceRequestDetail,
): Promise<ExperienceRequestDetail> {
  const base = app.baseUrl(request);
  const episodes = await withQueuePlaces(app.store.db, app.config.queueShares, detail.episodes);
  return { ...detail, episodes: episodes.map((e) => withAbsoluteReplay(base, e)) };
}

export const experienceRequestHandlers = defineHandlers({
  getPlayerState: async ({ identity, params, app }) =>
    getPlayerState(app.store.db, app.secrets, identity, params.coworld_name, params.player_id),
  createStateSnapshot: async ({ identity, params, body, app }) =>
    createStateSnapshot(app.store.db, identity, params.coworld_name, body.player_ids),
  createExperienceRequest: async ({ identity, body, app, request }) =>
    shown(
      app,
      request,
      await createExperienceRequest(app.store.db, app.events.bus, identity, body),
    ),
  listExperienceRequests: async ({ identity, query, app }) =>
    listExperienceRequests(app.store.db, identity, query),
  getExperienceRequest: async ({ identity, params, app, request }) =>
    shown(
      app,
      request,
      await getExperienceRequest(app.store.db, identity, params.experience_request_id),
    ),
  listExperienceRequestEpisodes: async ({ identity, params, app, request }) => {
    const base = app.baseUrl(request);
    const episodes = await withQueuePlaces(
      app.store.db,
      app.config.queueShares,
      await listExperienceRequestEpisodes(app.store.db, identity, params.experience_request_id),
    );
    return episodes.map((e) => withAbsoluteReplay(base, e));
  },
  cancelExperienceRequest: async ({ identity, params, app, request }) =>
    shown(
      app,
      request,
      await cancelExperienceRequest(
        app.store.db,
        app.events.bus,
        identity,
        params.experience_request_id,
      ),
    ),
});

export const bulkUploadHandlers = defineHandlers({
  startBulkUpload: async ({ identity, app, request }) =>
    withAbsoluteUploadUrl(
      app.baseUrl(request),
      await startBulkUpload(app.store.db, app.blobs, identity),
    ),
  putBulkUploadFile: signedPutHandler(putBulkUploadFile, checkBulkUploadAddress),
  completeBulkUpload: async ({ identity, body, app }) =>
    completeBulkUpload(app.store.db, app.blobs, identity, body.upload_id),
});
