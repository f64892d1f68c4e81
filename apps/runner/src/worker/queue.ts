// The work queue as the runner sees it (docs/api.md, "Runner work queue"), over the SDK and the
// runner's server addresses (servers.ts). Reports that must arrive (complete, fail) are sent
// with one Idempotency-Key and kept until a server accepts or refuses them, on whichever replica
// answers: the server treats a repeated report as a no-op. Every
// report on a job carries its lease's secret (X-Lease-Token), which lives only in this process's
// memory: never in a file or an environment an episode could read.
import { randomUUID } from "node:crypto";

import type { LeasedJob } from "@gauntlet/core";
import {
  isConflictError,
  isPermissionDeniedError,
  type Gauntlet,
  type InputOf,
  type RequestOptions,
} from "@gauntlet/sdk";

import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import type { CallOptions, ServerPool } from "./servers.ts";

export type FailReport = Omit<InputOf<"failJob">["body"], "runner_id">;
export type CompleteReport = Omit<InputOf<"completeJob">["body"], "runner_id">;

/** A leased job as its reports name it: its id and its lease's secret. */
export type LeaseRef = Pick<LeasedJob, "job_id" | "lease_token">;

export interface Queue {
  /**
   * Up to `capacity` batch jobs, and with `interactiveCapacity` up to that many live games besides.
   */
  lease(
    capacity: number,
    options?: RequestOptions & { interactiveCapacity?: number },
  ): Promise<{ jobs: LeasedJob[]; leaseSeconds: number }>;
  /**
   * `cancel: true` means the job is no longer this runner's to run: the server said so, or
   * refused the lease as stale or not this machine's.
   */
  heartbeat(job: LeaseRef): Promise<{ cancel: boolean; peopleWaiting: number }>;
  upload(job: LeaseRef, name: string, bytes: Uint8Array): Promise<void>;
  complete(job: LeaseRef, report: CompleteReport, options?: RequestOptions): Promise<void>;
  fail(job: LeaseRef, report: FailReport, options?: RequestOptions): Promise<void>;
  download(sha256: string): Promise<Uint8Array>;
}

/**
 * The queue of a runner on `runtime`. Jobs name how their runnables are given (an argv or an
 * image), not where they run: a sandbox runner takes argv jobs and runs them sandboxed, and says
 * so with each lease (the episode shows it).
 */
export function queueOver(servers: ServerPool, runnerId: string, runtime: RuntimeKind): Queue {
  const runtimes: ("process" | "docker")[] = [runtime === "docker" ? "docker" : "process"];
  // A report told to try a bounded number of times (`retries`, e.g. while shutting down) makes
  // that many rounds over the servers; otherwise it is kept until a server answers.
  const reportCall = (options: RequestOptions = {}): [RequestOptions, CallOptions] => {
    const { retries, ...rest } = options;
    if (retries === undefined) return [rest, { untilAnswered: true }];
    const rounds = 1 + (typeof retries === "number" ? retries : (retries.maxRetries ?? 0));
    return [rest, { rounds }];
  };
  // One key for every try, on every server: a repeat is recognised as the same report.
  const sendReport = async (
    what: "complete" | "fail",
    send: (client: Gauntlet, options: RequestOptions) => Promise<unknown>,
    options?: RequestOptions,
  ): Promise<void> => {
    const [requestOptions, callOptions] = reportCall(options);
    const idempotencyKey = randomUUID();
    await servers.call(
      what,
      (client, tryOptions) => send(client, { idempotencyKey, ...tryOptions }),
      requestOptions,
      callOptions,
    );
  };
  /** A report's request: the job, its lease's secret, and the report as this runner's. */
  const reportInput = <R extends object>(job: LeaseRef, report: R) => ({
    job_id: job.job_id,
    lease_token: job.lease_token,
    body: { runner_id: runnerId, ...report },
  });
  return {
    async lease(capacity, options = {}) {
      const { interactiveCapacity, ...requestOptions } = options;
      const res = await servers.call("lease", (client, callOptions) =>
        client.runner.lease(
          {
            body: {
              runner_id: runnerId,
              capacity,
              runtimes,
              isolation: runtime,
              ...(interactiveCapacity === undefined
                ? {}
                : { interactive_capacity: interactiveCapacity }),
            },
          },
          { ...requestOptions, ...callOptions },
        ),
      );
      return { jobs: res.jobs, leaseSeconds: res.lease_seconds };
    },
    async heartbeat(job) {
      try {
        // One round: heartbeats recur, and the lease outlives two missed ones.
        const res = await servers.call(
          "heartbeat",
          (client, options) =>
            client.runner.heartbeat(
              { job_id: job.job_id, lease_token: job.lease_token, body: { runner_id: runnerId } },
              options,
            ),
          { timeout: 10_000 },
        );
        return { cancel: res.cancel, peopleWaiting: res.people_waiting ?? 0 };
      } catch (error) {
        // A stale lease (409) or one the server says is not ours (403) is a lost lease.
        if (isConflictError(error) || isPermissionDeniedError(error))
          return { cancel: true, peopleWaiting: 0 };
        throw error;
      }
    },
    async upload(job, name, bytes) {
      // Kept until answered, as the report that follows it: a result without its files is worse.
      await servers.call(
        "upload",
        (client, options) =>
          client.runner.uploadArtifact(
            { job_id: job.job_id, lease_token: job.lease_token, artifact_name: name, body: bytes },
            options,
          ),
        { timeout: 120_000 },
        { untilAnswered: true },
      );
    },
    async complete(job, report, options) {
      await sendReport(
        "complete",
        (client, tryOptions) => client.runner.complete(reportInput(job, report), tryOptions),
        options,
      );
    },
    async fail(job, report, options) {
      await sendReport(
        "fail",
        (client, tryOptions) => client.runner.fail(reportInput(job, report), tryOptions),
        options,
      );
    },
    async download(sha256) {
      return servers.call(
        "download",
        (client, options) => client.runner.downloadBlob({ sha256 }, options),
        { timeout: 300_000 },
        { rounds: 3 },
      );
    },
  };
}
