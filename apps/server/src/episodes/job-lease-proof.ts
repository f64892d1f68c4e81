// Who may report on a job: a runner (a machine token) holding the job's current lease, proved by
// the lease's secret; and the job's state as a report answers it.
import type { Kysely } from "kysely";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { hashToken } from "../auth/secrets.ts";
import { conflict, forbidden, notFound, ServiceError } from "../shared/errors.ts";
import type { Database, JobsTable } from "../store/schema.ts";

export function assertRunner(identity: AuthenticatedIdentity): void {
  if (identity.kind !== "machine")
    throw forbidden("The work queue is for runners: use a machine token.");
}

/** Who reports on a job: the calling machine and the lease secret it presented (if any). */
export interface LeaseProof {
  machineId: string;
  token: string | undefined;
}

/**
 * Refuses a report that is not from the job's current lease: no secret (403 lease_required),
 * another machine's lease (403 lease_not_held), or a secret that is not the job's latest
 * (409 lease_stale: the lease expired into another, or never was). A job's latest lease stays
 * recorded after it ends, so its holder repeating a report gets the no-op answer, not a refusal.
 */
export function assertLease(job: JobsTable, proof: LeaseProof): string {
  if (proof.token === undefined || proof.token === "")
    throw new ServiceError(
      403,
      "lease_required",
      `Reports on job ${job.id} need the lease's secret in the X-Lease-Token header (the lease_token the lease answered with).`,
    );
  if (job.lease_machine_id !== proof.machineId)
    throw new ServiceError(
      403,
      "lease_not_held",
      `Job ${job.id} is not leased by this machine; only the runner holding its lease reports on it.`,
    );
  const hash = hashToken(proof.token);
  if (job.lease_token_hash !== hash)
    throw conflict(
      `This lease of job ${job.id} is no longer current (it expired, or the job was leased again); the report was not recorded.`,
      "lease_stale",
    );
  return hash;
}

export function jobState(job: JobsTable) {
  return {
    job_id: job.id,
    status: job.status,
    attempts: job.attempts,
    episode_request_id: job.episode_request_id,
  };
}

export async function jobRow(db: Kysely<Database>, jobId: string): Promise<JobsTable> {
  const job = await db.selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
  if (!job) throw notFound("job", jobId);
  return job;
}
