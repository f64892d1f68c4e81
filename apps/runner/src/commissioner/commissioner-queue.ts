// The commissioner jobs of the work queue as the runner sees them (docs/runtime.md, "The
// commissioner"): leasing one, and the one report on it, kept until a server answers. The lease's
// secret and the relay's address (it carries a token) live only in this process's memory.
import { randomUUID } from "node:crypto";

import type { CommissionerJob, CommissionerJobEnd } from "@gauntlet/core";

import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import type { ServerPool } from "../worker/servers.ts";

export type CommissionerReport = Omit<CommissionerJobEnd, "runner_id">;

export interface CommissionerQueue {
  lease(): Promise<CommissionerJob | null>;
  end(
    job: Pick<CommissionerJob, "job_id" | "lease_token">,
    report: CommissionerReport,
  ): Promise<void>;
}

export function commissionerQueueOver(
  servers: ServerPool,
  runnerId: string,
  runtime: RuntimeKind,
): CommissionerQueue {
  const runtimes: ("process" | "docker")[] = [runtime === "docker" ? "docker" : "process"];
  return {
    async lease() {
      const res = await servers.call("lease a commissioner", (client, options) =>
        client.runner.leaseCommissioner(
          { body: { runner_id: runnerId, runtimes, isolation: runtime } },
          options,
        ),
      );
      return res.job;
    },
    async end(job, report) {
      const idempotencyKey = randomUUID();
      await servers.call(
        "end a commissioner",
        (client, options) =>
          client.runner.endCommissioner(
            {
              job_id: job.job_id,
              lease_token: job.lease_token,
              body: { runner_id: runnerId, ...report },
            },
            { idempotencyKey, ...options },
          ),
        { timeout: 30_000 },
        { rounds: 5 },
      );
    },
  };
}
