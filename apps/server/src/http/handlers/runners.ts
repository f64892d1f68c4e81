import { notFound } from "../../domain/errors.ts";
import { assertRunner, complete, fail, heartbeat, lease, leaseSeconds, storeArtifact } from "../../domain/jobs.ts";
import { defineHandlers } from "../handler.ts";

export const runnerHandlers = defineHandlers({
  leaseJobs: async ({ identity, body, app }) => {
    assertRunner(identity);
    return { jobs: await lease(app.queue, `${identity.subjectId}/${body.runner_id}`, body.capacity, body.runtimes), lease_seconds: leaseSeconds() };
  },
  heartbeatJob: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return heartbeat(app.queue, params.job_id, `${identity.subjectId}/${body.runner_id}`);
  },
  uploadJobArtifact: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return storeArtifact(app.queue, params.job_id, params.artifact_name, body);
  },
  completeJob: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return complete(app.queue, params.job_id, body.results);
  },
  failJob: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return fail(app.queue, params.job_id, `${identity.subjectId}/${body.runner_id}`, body);
  },
  downloadBlob: async ({ identity, params, app }) => {
    assertRunner(identity);
    const bytes = await app.blobs.get(params.sha256);
    if (!bytes) throw notFound("blob", params.sha256);
    return bytes;
  },
});
