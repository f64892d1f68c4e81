import type { FastifyRequest } from "fastify";

import { LEASE_TOKEN_HEADER, type LeasedJob } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { defineHandlers, type AppContext } from "../http/handler.ts";
import { webSocketTo } from "../http/public-address.ts";
import { notFound } from "../shared/errors.ts";
import { scrubPaths } from "../shared/scrub-paths.ts";
import { heartbeat } from "./heartbeat.ts";
import { complete, storeArtifact } from "./job-completion.ts";
import { fail } from "./job-failure.ts";
import { assertRunner, type LeaseProof } from "./job-lease-proof.ts";
import type { QueueDeps } from "./queue-deps.ts";
import { leaseSeconds } from "./queue-settings.ts";
import { lease, leaseHoldsBlob } from "./work-queue.ts";

const LEASE_HEADER = LEASE_TOKEN_HEADER.toLowerCase();

/** The calling machine and the lease secret its request carries. */
function proofOf(identity: AuthenticatedIdentity, request: FastifyRequest): LeaseProof {
  const header = request.headers[LEASE_HEADER];
  return { machineId: identity.subjectId, token: typeof header === "string" ? header : undefined };
}

function queueOf(app: AppContext): QueueDeps {
  return {
    db: app.store.db,
    blobs: app.blobs,
    box: app.secrets,
    shares: app.config.queueShares,
    ...(app.onEpisodeSettled ? { onSettled: app.onEpisodeSettled } : {}),
  };
}

/**
 * The job with each human seat's relay address absolute: the play session stored its path, and
 * the public address (never a joiner's request) decides where the runner connects.
 */
function withAbsoluteRelays(base: string, job: LeasedJob): LeasedJob {
  return {
    ...job,
    players: job.players.map((p) =>
      p.human_relay ? { ...p, human_relay: { url: webSocketTo(base, p.human_relay.url) } } : p,
    ),
  };
}

export const runnerHandlers = defineHandlers({
  leaseJobs: async ({ identity, body, app, request }) => {
    assertRunner(identity);
    const jobs = await lease(
      queueOf(app),
      identity.subjectId,
      body.runner_id,
      body.capacity,
      body.runtimes,
      body.isolation ?? null,
      new Date(),
      body.interactive_capacity,
    );
    const base = app.baseUrl(request);
    return { jobs: jobs.map((j) => withAbsoluteRelays(base, j)), lease_seconds: leaseSeconds() };
  },
  heartbeatJob: async ({ identity, params, request, app }) => {
    assertRunner(identity);
    return heartbeat(queueOf(app), params.job_id, proofOf(identity, request));
  },
  uploadJobArtifact: async ({ identity, params, body, request, app }) => {
    assertRunner(identity);
    return storeArtifact(
      queueOf(app),
      params.job_id,
      proofOf(identity, request),
      params.artifact_name,
      body,
    );
  },
  completeJob: async ({ identity, params, body, request, app }) => {
    assertRunner(identity);
    return complete(
      queueOf(app),
      params.job_id,
      proofOf(identity, request),
      body.results,
      body.cpu,
    );
  },
  failJob: async ({ identity, params, body, request, app }) => {
    assertRunner(identity);
    return fail(queueOf(app), params.job_id, proofOf(identity, request), {
      ...body,
      error: scrubPaths(body.error),
    });
  },
  downloadBlob: async ({ identity, params, app }) => {
    assertRunner(identity);
    // Another user's bundle is 404 to a runner that runs none of its jobs, as if it did not exist.
    if (!(await leaseHoldsBlob(app.store.db, identity.subjectId, params.sha256)))
      throw notFound("blob", params.sha256);
    const bytes = await app.blobs.get(params.sha256);
    if (!bytes) throw notFound("blob", params.sha256);
    return bytes;
  },
});
