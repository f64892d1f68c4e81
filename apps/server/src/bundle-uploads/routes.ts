import { defineHandlers } from "../http/handler.ts";
import { putContentUpload } from "./content-uploads.ts";
import {
  completeReplayViewerBundleUpload,
  requestReplayViewerBundleUpload,
} from "./replay-viewer-bundles.ts";
import { completeReporterUpload, requestReporterUpload } from "./reporter-versions.ts";

export const bundleUploadHandlers = defineHandlers({
  requestReporterUpload: async ({ identity, body, app, request }) =>
    requestReporterUpload(app.store.db, app.blobs, identity, body, app.baseUrl(request)),
  completeReporterUpload: async ({ identity, body, app }) =>
    completeReporterUpload(app.store.db, app.blobs, identity, body),
  putContentUpload: async ({ params, query, body, app }) =>
    putContentUpload(
      app.store.db,
      app.blobs,
      params.upload_id,
      query.expires,
      query.signature,
      body,
    ),
  requestReplayViewerBundleUpload: async ({ identity, body, app, request }) =>
    requestReplayViewerBundleUpload(app.store.db, app.blobs, identity, body, app.baseUrl(request)),
  completeReplayViewerBundleUpload: async ({ identity, body, app }) =>
    completeReplayViewerBundleUpload(app.store.db, app.blobs, identity, body),
});
