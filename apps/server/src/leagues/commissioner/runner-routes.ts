// The runner's side of coworld commissioners: leasing a commissioner job, reporting its end with
// the commissioner's log, and the relay socket (a WebSocket upgrade, token in its address) that
// runner-relay.ts joins to the session's driver.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";

import { COMMISSIONER_STARTUP_TIMEOUT_MS, LEASE_TOKEN_HEADER } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../../auth/identity.ts";
import { assertRunner } from "../../episodes/job-lease-proof.ts";
import { defineHandlers, type CommissionerEndKind } from "../../http/handler.ts";
import { webSocketTo } from "../../http/public-address.ts";
import { scrubPaths } from "../../shared/scrub-paths.ts";
import type { Database } from "../../store/schema.ts";
import { admitRelay, endCommissionerJob, leaseCommissionerJob } from "./runner-jobs.ts";
import type { CommissionerRelay } from "./runner-relay.ts";

const RELAY_OPERATION = "commissionerJobRelay";
/** The contract operation answered as a WebSocket upgrade. */
export const COMMISSIONER_RELAY_OPERATION_IDS: readonly string[] = [RELAY_OPERATION];

/** How long the runner runs a commissioner at most: a session's life and its startup. */
export const COMMISSIONER_JOB_DEADLINE_MS = 11 * 60_000;

const LEASE_HEADER = LEASE_TOKEN_HEADER.toLowerCase();

function proofOf(identity: AuthenticatedIdentity, request: FastifyRequest) {
  const header = request.headers[LEASE_HEADER];
  return { machineId: identity.subjectId, token: typeof header === "string" ? header : undefined };
}

/** The failure a runner's report means for a session that has not ended otherwise. */
const REPORTED: Record<string, CommissionerEndKind> = {
  ended: "disconnected",
  crashed: "crashed",
  unhealthy: "startup_timeout",
  oversized: "oversized",
  runner_error: "crashed",
};

export const commissionerJobHandlers = defineHandlers({
  leaseCommissionerJob: async ({ identity, body, app, request }) => {
    assertRunner(identity);
    const leased = await leaseCommissionerJob(
      app.store.db,
      identity.subjectId,
      body.runner_id,
      body.runtimes,
      body.isolation ?? null,
    );
    if (!leased) return { job: null };
    const path = `/v2/runner/commissioner-jobs/${leased.job.job_id}/relay?token=${encodeURIComponent(leased.relayToken)}`;
    return {
      job: {
        ...leased.job,
        relay_url: webSocketTo(app.baseUrl(request), path),
        startup_timeout_ms: COMMISSIONER_STARTUP_TIMEOUT_MS,
        deadline_ms: COMMISSIONER_JOB_DEADLINE_MS,
      },
    };
  },
  endCommissionerJob: async ({ identity, params, body, request, app }) => {
    assertRunner(identity);
    const error = scrubPaths(body.error);
    const ended = await endCommissionerJob(
      app.store.db,
      params.job_id,
      proofOf(identity, request),
      {
        ...body,
        error,
      },
    );
    if (ended.first)
      app.commissioners.reported(
        params.job_id,
        REPORTED[body.outcome] ?? "crashed",
        `the commissioner's runner reported ${body.outcome}${error ? `: ${error}` : ""}`,
      );
    return { job_id: ended.job_id, status: ended.status };
  },
  commissionerJobRelay: async () => ({
    description:
      "Upgrade this request to a WebSocket with the job's relay token: the runner's side of a commissioner session.",
  }),
});

/** Call before the contract's routes are registered and before the WebSocket plugin is. */
export function installCommissionerRelay(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; relay: CommissionerRelay },
): void {
  app.addHook("onRoute", (route) => {
    if (route.config?.op?.id !== RELAY_OPERATION) return;
    route.wsHandler = (socket, request) => {
      const id = (request.params as { job_id?: string }).job_id ?? "";
      const token = (request.query as { token?: string }).token ?? "";
      socket.pause();
      admitRelay(deps.db, id, token)
        .then((admitted) => {
          // Read again either way: a refused socket must read the client's close to end at once.
          socket.resume();
          if (admitted === "unknown") return socket.close(4401, "unknown job or wrong token");
          if (admitted === "ended") return socket.close(4410, "the session is over");
          deps.relay.attach(id, socket);
        })
        .catch((error: unknown) => {
          request.log.error({ err: error }, "commissioner relay: admitting a socket failed");
          socket.close(1011, "the server failed");
        });
    };
  });
}
