import { defineHandlers } from "../http/handler.ts";
import { absoluteTo } from "../http/public-address.ts";
import { putContentUpload } from "./content-uploads.ts";
import {
  completeReplayViewerBundleUpload,
  requestReplayViewerBundleUpload,
} from "./replay-viewer-bundles.ts";
import { completeReporterUpload, requestReporterUpload } from "./reporter-versions.ts";

/** No address when the bytes are stored already; else the domain's path made absolute. */
const uploadUrl = (base: string, url: string | null) =>
  url === null ? null : absoluteTo(base, url);

export const bundleUploadHandlers = defineHandlers({
  requestReporterUpload: async ({ identity, body, app, request }) => {
    const started = await requestReporterUpload(app.store.db, app.blobs, identity, body);
    return { ...started, upload_url: uploadUrl(app.baseUrl(request), started.upload_url) };
  },
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
  requestReplayViewerBundleUpload: async ({ identity, body, app, request }) => {
    const started = await requestReplayViewerBundleUpload(app.store.db, app.blobs, identity, body);
    return { ...started, upload_url: uploadUrl(app.baseUrl(request), started.upload_url) };
  },
  completeReplayViewerBundleUpload: async ({ identity, body, app }) =>
    completeReplayViewerBundleUpload(app.store.db, app.blobs, identity, body),
});
