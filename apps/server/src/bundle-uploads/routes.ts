import { defineHandlers } from "../http/handler.ts";
import { signedPutHandler, withAbsoluteUploadUrl } from "../http/upload-handlers.ts";
import { checkContentUploadAddress, putContentUpload } from "./content-uploads.ts";
import {
  completeReplayViewerBundleUpload,
  requestReplayViewerBundleUpload,
} from "./replay-viewer-bundles.ts";
import { completeReporterUpload, requestReporterUpload } from "./reporter-versions.ts";

export const bundleUploadHandlers = defineHandlers({
  requestReporterUpload: async ({ identity, body, app, request }) =>
    withAbsoluteUploadUrl(
      app.baseUrl(request),
      await requestReporterUpload(app.store.db, app.blobs, identity, body),
    ),
  completeReporterUpload: async ({ identity, body, app }) =>
    completeReporterUpload(app.store.db, app.blobs, identity, body),
  putContentUpload: signedPutHandler(putContentUpload, checkContentUploadAddress),
  requestReplayViewerBundleUpload: async ({ identity, body, app, request }) =>
    withAbsoluteUploadUrl(
      app.baseUrl(request),
      await requestReplayViewerBundleUpload(app.store.db, app.blobs, identity, body),
    ),
  completeReplayViewerBundleUpload: async ({ identity, body, app }) =>
    completeReplayViewerBundleUpload(app.store.db, app.blobs, identity, body),
});
