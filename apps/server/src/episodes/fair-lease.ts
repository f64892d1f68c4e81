// What a runner's lease may take, read for the fair order (fair-order.ts): the jobs running now
// by class and requester, the oldest few queued jobs of each class and requester that this runner
// can run, and the jobs of each class that ended since the classes waiting now all began to wait. Indexed reads
// (migration 021's jobs_share_queue, 024's jobs_leased_at); the claim itself stays a
// conditional update in work-queue.ts, so several replicas never lease one job twice.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from "kysely";

import type { Isolation } from "@gauntlet/core";

import { jobCodeTrusted, runsUntrustedCode } from "../access/code-trust.ts";
import type { Database, JobsTable } from "../store/schema.ts";
import type { QueuedJob, RunningCount } from "./fair-order.ts";
import { SHARE_CLASSES, type ShareClass } from "./queue-shares.ts";

/** Which jobs a lease looks at: all, those without a person's seat, or those with one (live games). */
export type LeaseLane = "any" | "batch" | "interactive";

/** Restricts a query of `jobs` to a lane: a job with a seat a person plays lasts as long as the person takes. */
export function inLane<O>(
  q: SelectQueryBuilder<Database, "jobs", O>,
  lane: LeaseLane,
): SelectQueryBuilder<Database, "jobs", O> {
  if (lane === "any") return q;
  return q.where((eb: ExpressionBuilder<Database, "jobs">) => {
    const human = eb.exists(
      eb
        .selectFrom("episode_participants as hp")
        .select("hp.position")
        .whereRef("hp.episode_request_id", "=", "jobs.episode_request_id")
        .where("hp.human_relay", "is not", null),
    );
    return lane === "interactive" ? human : eb.not(human);
  });
}

const asClass = (value: string): ShareClass =>
  SHARE_CLASSES.find((c) => c === value) ?? "evaluation";

/** Leased jobs of the lane, counted by class and requester. */
export async function runningCounts(
  db: Kysely<Database>,
  lane: LeaseLane,
): Promise<RunningCount[]> {
  const rows = await inLane(db.selectFrom("jobs").where("status", "=", "leased"), lane)
    .select((eb) => ["share_class", "share_owner", eb.fn.countAll().as("n")])
    .groupBy(["share_class", "share_owner"])
    .execute();
  return rows.map((r) => ({
    shareClass: asClass(r.share_class),
    owner: r.share_owner,
    n: Number(r.n),
  }));
}

/**
 * The lane's jobs leased since `since` that are no longer running, by class: what each class was
 * served while the classes now waiting were all waiting (contentionSince, fair-order.ts).
 */
export async function endedSince(
  db: Kysely<Database>,
  lane: LeaseLane,
  since: string,
): Promise<Partial<Record<ShareClass, number>>> {
  const rows = await inLane(
    db.selectFrom("jobs").where("leased_at", ">=", since).where("status", "!=", "leased"),
    lane,
  )
    .select((eb) => ["share_class", eb.fn.countAll().as("n")])
    .groupBy("share_class")
    .execute();
  const out: Partial<Record<ShareClass, number>> = {};
  for (const r of rows) out[asClass(r.share_class)] = Number(r.n);
  return out;
}

export type QueuedRow = JobsTable & QueuedJob;

/**
 * The `perOwner` oldest queued jobs of each class and requester that a runner of these runtimes
 * and this isolation may run: enough for any one lease of `perOwner` slots to follow the order
 * exactly, however the slots fall between requesters.
 */
export async function queuedCandidates(
  db: Kysely<Database>,
  filter: { lane: LeaseLane; runtimes: string[]; isolation: Isolation | null },
  perOwner: number,
): Promise<QueuedRow[]> {
  let inner = inLane(
    db
      .selectFrom("jobs")
      .selectAll()
      .select((eb) =>
        eb.fn
          .agg<number>("row_number")
          .over((ob) =>
            ob
              .partitionBy(["share_class", "share_owner"])
              .orderBy("created_at")
              .orderBy("episode_request_id"),
          )
          .as("rank"),
      )
      .where("status", "=", "queued")
      .where("runtime", "in", filter.runtimes),
    filter.lane,
  );
  // Competitors' code only goes where each runnable is isolated (access/code-trust.ts).
  if (!runsUntrustedCode(filter.isolation)) inner = inner.where((eb) => jobCodeTrusted(eb));
  const rows = await db
    .selectFrom(inner.as("q"))
    .selectAll()
    .where("q.rank", "<=", perOwner)
    .execute();
  return rows.map(({ rank: _rank, ...job }) => ({
    ...job,
    shareClass: asClass(job.share_class),
    owner: job.share_owner,
    createdAt: job.created_at,
    episodeId: job.episode_request_id,
  }));
}
