import { defineHandlers, type AppContext } from "../http/handler.ts";
import { notFound } from "../shared/errors.ts";
import {
  assertRunner,
  complete,
  fail,
  heartbeat,
  lease,
  leaseSeconds,
  storeArtifact,
  type QueueDeps,
} from "./work-queue.ts";

function queueOf(app: AppContext): QueueDeps {
  return {
    db: app.store.db,
    blobs: app.blobs,
    box: app.secrets,
    ...(app.onEpisodeSettled ? { onSettled: app.onEpisodeSettled } : {}),
  };
}

export const runnerHandlers = defineHandlers({
  leaseJobs: async ({ identity, body, app }) => {
    assertRunner(identity);
    return {
      jobs: await lease(
        queueOf(app),
        `${identity.subjectId}/${body.runner_id}`,
        body.capacity,
        body.runtimes,
      ),
      lease_seconds: leaseSeconds(),
    };
  },
  heartbeatJob: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return heartbeat(queueOf(app), params.job_id, `${identity.subjectId}/${body.runner_id}`);
  },
  uploadJobArtifact: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return storeArtifact(queueOf(app), params.job_id, params.artifact_name, body);
  },
  completeJob: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return complete(queueOf(app), params.job_id, body.results);
  },
  failJob: async ({ identity, params, body, app }) => {
    assertRunner(identity);
    return fail(queueOf(app), params.job_id, `${identity.subjectId}/${body.runner_id}`, body);
  },
  downloadBlob: async ({ identity, params, app }) => {
    assertRunner(identity);
    const bytes = await app.blobs.get(params.sha256);
    if (!bytes) throw notFound("blob", params.sha256);
    return bytes;
  },
});
