// Finished commissioner jobs (leagues/commissioner/runner-jobs.ts) are work records, each with
// the commissioner's capped log (up to 1 MiB): what a round needs of them is copied into the round
// when it fails (`commissioner_log`), so once old they are deleted, logs and all.
import type { Kysely } from "kysely";

import { COMMISSIONER_MAX_LIFETIME_MS } from "@gauntlet/core";

import type { Database } from "../store/schema.ts";

/**
 * However short the setting, a job is kept this long after it was queued: longer than any session
 * lives, so a live session's job (and the log its driver reads as it ends) is never taken.
 */
export const COMMISSIONER_JOB_FLOOR_MS = COMMISSIONER_MAX_LIFETIME_MS + 60 * 60_000;

/**
 * Deletes the commissioner jobs that ended more than `maxAgeMs` ago, and those that never ended
 * (their server stopped before abandoning them) queued as long ago. Answers how many went.
 */
export async function expireCommissionerJobs(
  db: Kysely<Database>,
  maxAgeMs: number,
  now = Date.now(),
): Promise<number> {
  const cutoff = new Date(now - maxAgeMs).toISOString();
  const floor = new Date(now - COMMISSIONER_JOB_FLOOR_MS).toISOString();
  const deleted = await db
    .deleteFrom("commissioner_jobs")
    .where("created_at", "<", floor)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "ended"), eb("ended_at", "<", cutoff)]),
        eb.and([eb("status", "!=", "ended"), eb("created_at", "<", cutoff)]),
      ]),
    )
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
