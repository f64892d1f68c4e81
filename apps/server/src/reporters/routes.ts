import type { ReporterRunOutput } from "@gauntlet/core";

import { defineHandlers, REPLIED } from "../http/handler.ts";
import { outputBytes, postOutput, reporterOutputs, runOutputs, sentMediaType } from "./outputs.ts";
import { getReporter, listReporters, registerReporter, rotateReporterKey } from "./reporters.ts";
import { openReporterRun } from "./runs.ts";

/** An output's `url`, a path in the domain, made absolute with the server's public address. */
const absolute = (output: ReporterRunOutput, base: string): ReporterRunOutput => ({
  ...output,
  url: `${base}${output.url}`,
});

export const reporterHandlers = defineHandlers({
  registerReporter: async ({ identity, body, app }) =>
    registerReporter(app.store.db, identity, body),
  rotateReporterKey: async ({ identity, params, app }) =>
    rotateReporterKey(app.store.db, identity, params.reporter_id),
  openReporterRun: async ({ identity, params, body, app }) =>
    openReporterRun(app.store.db, identity, params.reporter_id, body),
  postReporterOutput: async ({ identity, query, body, app, request }) =>
    absolute(
      await postOutput(
        app.store.db,
        app.blobs,
        identity,
        {
          ...query,
          media_type: query.media_type ?? sentMediaType(request.headers["content-type"]),
        },
        body,
      ),
      app.baseUrl(request),
    ),
  listReporters: async ({ query, app }) => listReporters(app.store.db, query),
  getReporter: async ({ params, app }) => getReporter(app.store.db, params.reporter_id),
  listReporterOutputs: async ({ params, app, request }) => {
    await getReporter(app.store.db, params.reporter_id);
    const base = app.baseUrl(request);
    return (await reporterOutputs(app.store.db, params.reporter_id)).map((o) => absolute(o, base));
  },
  getReporterOutput: async ({ params, app, reply }) => {
    const { row, bytes } = await outputBytes(app.store.db, app.blobs, params.output_id);
    // Written by a reporter, served from the API's origin: sandboxed, so no script of it runs here.
    void reply
      .code(200)
      .type(row.media_type)
      .header("content-security-policy", "sandbox")
      .header("x-content-type-options", "nosniff")
      .header("etag", `"${row.content_hash}"`)
      .send(bytes);
    return REPLIED;
  },
  getReporterRunOutput: async ({ params, app, request }) => {
    const base = app.baseUrl(request);
    return (await runOutputs(app.store.db, params.reporter_run_id)).map((o) => absolute(o, base));
  },
});
