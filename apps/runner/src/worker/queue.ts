// The work queue as the runner sees it (API.md "Runner work queue"), over the SDK. Reports
// that must arrive (complete, fail) are sent with an Idempotency-Key so that the SDK may
// repeat them after a lost connection: the server treats a repeated report as a no-op.
import { randomUUID } from "node:crypto";

import type { LeasedJob } from "@gauntlet/core";
import type { Gauntlet, InputOf, RequestOptions } from "@gauntlet/sdk";

export type FailReport = Omit<InputOf<"failJob">["body"], "runner_id">;
export type CompleteReport = Omit<InputOf<"completeJob">["body"], "runner_id">;

export interface Queue {
  lease(
    capacity: number,
    options?: RequestOptions,
  ): Promise<{ jobs: LeasedJob[]; leaseSeconds: number }>;
  /** `cancel: true` means the job is no longer this runner's to run. */
  heartbeat(jobId: string): Promise<{ cancel: boolean }>;
  upload(jobId: string, name: string, bytes: Uint8Array): Promise<void>;
  complete(jobId: string, report: CompleteReport, options?: RequestOptions): Promise<void>;
  fail(jobId: string, report: FailReport, options?: RequestOptions): Promise<void>;
  download(sha256: string): Promise<Uint8Array>;
}

export function queueOver(
  client: Gauntlet,
  runnerId: string,
  runtime: "process" | "docker",
): Queue {
  return {
    async lease(capacity, options) {
      const res = await client.runner.lease(
        { body: { runner_id: runnerId, capacity, runtimes: [runtime] } },
        options,
      );
      return { jobs: res.jobs, leaseSeconds: res.lease_seconds };
    },
    async heartbeat(jobId) {
      const res = await client.runner.heartbeat(
        { job_id: jobId, body: { runner_id: runnerId } },
        { retries: 0 },
      );
      return { cancel: res.cancel };
    },
    async upload(jobId, name, bytes) {
      await client.runner.uploadArtifact(
        { job_id: jobId, artifact_name: name, body: bytes },
        { timeout: 120_000 },
      );
    },
    async complete(jobId, report, options) {
      await client.runner.complete(
        { job_id: jobId, body: { runner_id: runnerId, ...report } },
        { idempotencyKey: randomUUID(), ...options },
      );
    },
    async fail(jobId, report, options) {
      await client.runner.fail(
        { job_id: jobId, body: { runner_id: runnerId, ...report } },
        { idempotencyKey: randomUUID(), ...options },
      );
    },
    async download(sha256) {
      return client.runner.downloadBlob({ sha256 }, { timeout: 300_000 });
    },
  };
}
