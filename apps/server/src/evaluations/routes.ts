// The handlers of the experience-request operations.
import { defineHandlers } from "../http/handler.ts";
import { absoluteTo } from "../http/public-address.ts";
import { completeBulkUpload, putBulkUploadFile, startBulkUpload } from "./bulk-upload.ts";
import {
  cancelExperienceRequest,
  createExperienceRequest,
  getExperienceRequest,
  listExperienceRequestEpisodes,
  listExperienceRequests,
} from "./experience-requests.ts";

export const experienceRequestHandlers = defineHandlers({
  createExperienceRequest: async ({ identity, body, app, request }) =>
    createExperienceRequest(app.store.db, app.events.bus, identity, body, app.baseUrl(request)),
  listExperienceRequests: async ({ identity, query, app }) =>
    listExperienceRequests(app.store.db, identity, query),
  getExperienceRequest: async ({ identity, params, app, request }) =>
    getExperienceRequest(
      app.store.db,
      identity,
      params.experience_request_id,
      app.baseUrl(request),
    ),
  listExperienceRequestEpisodes: async ({ identity, params, app, request }) =>
    listExperienceRequestEpisodes(
      app.store.db,
      identity,
      params.experience_request_id,
      app.baseUrl(request),
    ),
  cancelExperienceRequest: async ({ identity, params, app, request }) =>
    cancelExperienceRequest(
      app.store.db,
      app.events.bus,
      identity,
      params.experience_request_id,
      app.baseUrl(request),
    ),
});

export const bulkUploadHandlers = defineHandlers({
  startBulkUpload: async ({ identity, app, request }) => {
    const started = await startBulkUpload(app.store.db, app.blobs, identity);
    return { ...started, upload_url: absoluteTo(app.baseUrl(request), started.upload_url) };
  },
  putBulkUploadFile: async ({ params, query, body, app }) =>
    putBulkUploadFile(
      app.store.db,
      app.blobs,
      params.upload_id,
      query.expires,
      query.signature,
      body,
    ),
  completeBulkUpload: async ({ identity, body, app }) =>
    completeBulkUpload(app.store.db, app.blobs, identity, body.upload_id),
});
