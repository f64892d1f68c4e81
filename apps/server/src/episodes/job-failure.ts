// A job's failure as its runner reports it (or a lease or join timeout decides it): failures of
// nobody's seat are retried while attempts are left, others end the episode with why.
import { nowIso } from "../shared/clock.ts";
import { conflict } from "../shared/errors.ts";
import type { JobsTable } from "../store/schema.ts";
import { touchEpisode } from "./episodes.ts";
import { assertLease, jobRow, jobState, type LeaseProof } from "./job-lease-proof.ts";
import {
  cpuColumn,
  errorInfo,
  putArtifactRow,
  setCertification,
  type FailInput,
  type FailureInfo,
} from "./job-records.ts";
import type { QueueDeps } from "./queue-deps.ts";

/** Failures of the runner or the machine, not of a seat or the game: retried within attempts. */
const NOBODYS_FAULT = new Set<string>(["runner_error", "infrastructure"]);

export async function fail(deps: QueueDeps, jobId: string, proof: LeaseProof, input: FailInput) {
  const job = await jobRow(deps.db, jobId);
  const leaseHash = assertLease(job, proof);
  if (job.status === "completed" || job.status === "failed") return jobState(job);
  if (job.status !== "leased")
    throw conflict(`job ${jobId} is not leased; its lease expired`, "lease_stale");
  await failLeased(deps, job, leaseHash, input);
  return jobState(await jobRow(deps.db, jobId));
}

/** Ends (or requeues) a job under its current lease; 409 when it was leased again meanwhile. */
export async function failLeased(
  deps: QueueDeps,
  job: JobsTable,
  leaseHash: string,
  input: FailureInfo,
): Promise<void> {
  const jobId = job.id;
  const returned = input.error_type === "returned";
  // Failures no seat caused are tried again while attempts are left.
  const retry =
    returned || (NOBODYS_FAULT.has(input.error_type) && job.attempts < job.max_attempts);
  const info = retry ? null : await deps.blobs.put(errorInfo(input));
  const settled = await deps.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable("jobs")
      .set({
        status: retry ? "queued" : "failed",
        lease_owner: null,
        lease_expires_at: null,
        // A job given back unrun does not spend an attempt.
        attempts: returned ? Math.max(0, job.attempts - 1) : job.attempts,
        updated_at: nowIso(),
      })
      .where("id", "=", jobId)
      .where("status", "=", "leased")
      .where("lease_token_hash", "=", leaseHash)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    if (info === null) {
      // Retried: the run's CPU still tells why (a busy runner), until the next run reports.
      await touchEpisode(trx, job.episode_request_id, {
        status: "submitted",
        ...cpuColumn(input.cpu),
      });
      return false;
    }
    await touchEpisode(trx, job.episode_request_id, {
      ...cpuColumn(input.cpu),
      status: "failed",
      error_type: input.error_type,
      error: input.error,
      failed_policy_index: input.failed_policy_index,
    });
    await setCertification(trx, job.episode_request_id, "failed", input.error);
    await putArtifactRow(trx, job.episode_request_id, "error-info", info, true);
    return true;
  });
  if (settled === null)
    throw conflict(`job ${jobId} was leased again while this report ran`, "lease_stale");
  if (settled)
    deps.onSettled?.({ episodeRequestId: job.episode_request_id, status: "failed", purpose: "" });
}
