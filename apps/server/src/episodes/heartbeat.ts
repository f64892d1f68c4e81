// A lease's heartbeat: it extends the lease, tells the runner to stop a job that ended, and fails
// a live game whose people never connected within the join timeout.
import type { Kysely } from "kysely";

import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { failLeased } from "./job-failure.ts";
import { assertLease, jobRow, type LeaseProof } from "./job-lease-proof.ts";
import type { QueueDeps } from "./queue-deps.ts";
import { joinTimeoutSeconds, leaseSeconds } from "./queue-settings.ts";

/** The seats of a job's live game whose person has not connected yet (none for other jobs). */
async function peopleWaiting(db: Kysely<Database>, episodeId: string): Promise<number[]> {
  const seats = await db
    .selectFrom("play_session_seats as s")
    .innerJoin("play_sessions as p", "p.id", "s.play_session_id")
    .select("s.position")
    .where("p.episode_request_id", "=", episodeId)
    .where("s.kind", "=", "human")
    .where("s.connected_at", "is", null)
    .orderBy("s.position")
    .execute();
  return seats.map((s) => s.position);
}

export async function heartbeat(
  deps: QueueDeps,
  jobId: string,
  proof: LeaseProof,
  now = new Date(),
) {
  const job = await jobRow(deps.db, jobId);
  const leaseHash = assertLease(job, proof);
  if (job.status !== "leased")
    return { lease_expires_at: job.lease_expires_at ?? now.toISOString(), cancel: true };
  const waiting = await peopleWaiting(deps.db, job.episode_request_id);
  const timeout = joinTimeoutSeconds();
  const since = job.leased_at === null ? now.getTime() : Date.parse(job.leased_at);
  const [first] = waiting;
  if (first !== undefined && now.getTime() - since > timeout * 1000) {
    // Nobody plays a game against an empty seat: it fails as the person's absence, never `completed`.
    const seats = waiting.map((p) => `seat ${p}`).join(", ");
    await failLeased(deps, job, leaseHash, {
      error_type: "player_never_connected",
      error: `the person in ${seats} never connected within the ${timeout} s join timeout; the game did not start`,
      failed_policy_index: first,
    });
    return {
      lease_expires_at: job.lease_expires_at ?? now.toISOString(),
      cancel: true,
      people_waiting: waiting.length,
    };
  }
  const expires = new Date(now.getTime() + leaseSeconds() * 1000).toISOString();
  const res = await deps.db
    .updateTable("jobs")
    .set({ lease_expires_at: expires, updated_at: nowIso() })
    .where("id", "=", jobId)
    .where("status", "=", "leased")
    .where("lease_token_hash", "=", leaseHash)
    .executeTakeFirst();
  return {
    lease_expires_at: expires,
    cancel: Number(res.numUpdatedRows) !== 1,
    people_waiting: waiting.length,
  };
}
