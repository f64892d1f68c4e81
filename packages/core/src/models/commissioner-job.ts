// A coworld's commissioner as runner work (docs/runtime.md, "The commissioner"): the server queues
// one job per commissioner session; a runner leases it, starts the coworld version's commissioner
// runnable in its sandbox (or a container), waits for its `/healthz`, and bridges the
// commissioner's `/round` socket to the session's relay on the server. The job ends with one
// report carrying the commissioner's log, capped.
import { z } from "zod";

import { Uuid } from "../ids.ts";
import { RunnableEnv } from "./coworld-manifest.ts";
import { Isolation, Runtime } from "./runner-job.ts";

/** The commissioner's log a job's report may carry (what the league's owner reads). */
export const COMMISSIONER_LOG_MAX_BYTES = 64 * 1024;

/**
 * The runner sends each commissioner message to the relay as text frames of at most this many
 * bytes: every frame but the last of a message starts with "+", the last with ".". The server
 * joins them (up to the protocol's 16 MiB) without letting any socket send it a larger frame.
 */
export const COMMISSIONER_RELAY_FRAME_BYTES = 32 * 1024;

export const CommissionerLeaseRequest = z
  .strictObject({
    runner_id: z.string().trim().min(1).max(100),
    runtimes: z.array(Runtime).min(1),
    isolation: Isolation.optional(),
  })
  .meta({ id: "CommissionerLeaseRequest" });

export const CommissionerJob = z
  .object({
    job_id: Uuid,
    lease_token: z.string().meta({
      description:
        "This lease's secret, shown once: send it as X-Lease-Token with the job's end report.",
    }),
    purpose: z.enum(["schedule", "migration", "round"]),
    league_id: z.string(),
    coworld: z.object({
      id: z.string(),
      name: z.string(),
      version: z.string(),
      bundle_sha256: z.string().nullable(),
    }),
    /** The manifest's `commissioner[]` entry this job runs. */
    runnable_id: z.string(),
    runnable: z.object({
      run: z.array(z.string()).nullable(),
      image: z.string().nullable(),
      env: RunnableEnv,
    }),
    relay_url: z.string().meta({
      description:
        "The session's relay (WebSocket) with its token: connect once `/healthz` answers 200, and bridge the commissioner's `/round` socket to it. It carries a secret: never print it.",
    }),
    startup_timeout_ms: z.number().int(),
    /** The session's whole life, at most: the runner stops the commissioner then. */
    deadline_ms: z.number().int(),
  })
  .meta({ id: "CommissionerJob" });

export const CommissionerLeaseResponse = z
  .object({ job: CommissionerJob.nullable() })
  .meta({ id: "CommissionerLeaseResponse" });

export const CommissionerJobEnd = z
  .strictObject({
    runner_id: z.string().trim().min(1).max(100),
    /**
     * `ended`: the session closed (either side); `crashed`: the commissioner exited first;
     * `unhealthy`: it never answered /healthz 200; `oversized`: it sent a message past 16 MiB;
     * `runner_error`: the runner could not run it.
     */
    outcome: z.enum(["ended", "crashed", "unhealthy", "oversized", "runner_error"]),
    error: z.string().max(10_000).default(""),
    log: z.string().max(COMMISSIONER_LOG_MAX_BYTES * 2),
  })
  .meta({ id: "CommissionerJobEnd" });

export const CommissionerJobState = z
  .object({ job_id: Uuid, status: z.enum(["queued", "leased", "ended"]) })
  .meta({ id: "CommissionerJobState" });

export const CommissionerRelayQuery = z.object({ token: z.string().optional() });

export const CommissionerRelayInfo = z
  .object({ description: z.string() })
  .meta({ id: "CommissionerRelayInfo" });

export type CommissionerJob = z.infer<typeof CommissionerJob>;
export type CommissionerJobEnd = z.infer<typeof CommissionerJobEnd>;
