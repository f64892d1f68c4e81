// Where a queued episode stands: its place in the order the runners will lease the queue
// (fair-order.ts, walked to the end) and an estimate of when it starts. Filled into episode views
// by the reads a user waits on (an episode, the episode lists, an experience request).
import type { Kysely } from "kysely";

import type { EpisodeRequest } from "@gauntlet/core";

import type { Database } from "../store/schema.ts";
import { endedSince, runningCounts } from "./fair-lease.ts";
import { contentionSince, FairOrder, type QueuedJob } from "./fair-order.ts";
import { SHARE_CLASSES, type QueueShares, type ShareClass } from "./queue-shares.ts";

interface Place {
  position: number;
  estimatedStartAt: string | null;
}

/** How many recent episodes the mean episode length is taken over. */
const RECENT_EPISODES = 50;

/** The mean time from lease to end of recently completed jobs, in ms; null before any. */
async function meanEpisodeMs(db: Kysely<Database>): Promise<number | null> {
  const rows = await db
    .selectFrom("jobs")
    .select(["leased_at", "updated_at"])
    .where("status", "=", "completed")
    .where("leased_at", "is not", null)
    .orderBy("created_at", "desc")
    .limit(RECENT_EPISODES)
    .execute();
  const lengths = rows.flatMap((r) =>
    r.leased_at === null ? [] : [Math.max(0, Date.parse(r.updated_at) - Date.parse(r.leased_at))],
  );
  return lengths.length === 0 ? null : lengths.reduce((a, b) => a + b, 0) / lengths.length;
}

const asClass = (value: string): ShareClass =>
  SHARE_CLASSES.find((c) => c === value) ?? "evaluation";

/** Every queued job, marked live when a person plays one of its seats (the interactive lane). */
async function queuedJobs(db: Kysely<Database>): Promise<(QueuedJob & { live: boolean })[]> {
  const rows = await db
    .selectFrom("jobs")
    .select((eb) => [
      "id",
      "share_class",
      "share_owner",
      "created_at",
      "episode_request_id",
      eb
        .exists(
          eb
            .selectFrom("episode_participants as hp")
            .select("hp.position")
            .whereRef("hp.episode_request_id", "=", "jobs.episode_request_id")
            .where("hp.human_relay", "is not", null),
        )
        .as("live"),
    ])
    .where("status", "=", "queued")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    shareClass: asClass(r.share_class),
    owner: r.share_owner,
    createdAt: r.created_at,
    episodeId: r.episode_request_id,
    // SQLite answers 0/1, PostgreSQL a boolean.
    live: Boolean(r.live),
  }));
}

/**
 * The place of each queued job among `jobIds`. Batch jobs are walked in the fair order from the
 * running counts of now (and what ended since the waiting classes all began to wait), each job taken counting as running (so turns go round as they would
 * while the slots free up one by one); live games are walked the same way in their own lane, and
 * get no estimate (a game with a person lasts as long as the person takes).
 *
 * The estimate: while work is queued, every runner that can take it is full, so the batch jobs
 * leased now are the slots serving the queue; with episodes lasting the recent mean, a slot frees
 * every mean ÷ slots on average and the job at position p starts after p of them. An evaluation
 * also waits for its requester's cap: with r of theirs running and k of theirs ahead, it needs
 * r + k + 1 − cap of their own to end, one every mean ÷ cap. No estimate while nothing runs (no
 * runner takes the queue) or before any episode has completed (no length to go by).
 */
export async function queuePlaces(
  db: Kysely<Database>,
  shares: QueueShares,
  jobIds: readonly string[],
  now = new Date(),
): Promise<Map<string, Place>> {
  const out = new Map<string, Place>();
  if (jobIds.length === 0) return out;
  const wanted = await db
    .selectFrom("jobs")
    .select("id")
    .where("id", "in", jobIds)
    .where("status", "=", "queued")
    .execute();
  if (wanted.length === 0) return out;
  const [queued, running, liveRunning, meanMs] = await Promise.all([
    queuedJobs(db),
    runningCounts(db, "batch"),
    runningCounts(db, "interactive"),
    meanEpisodeMs(db),
  ]);
  const batch = queued.filter((j) => !j.live);
  const live = queued.filter((j) => j.live);
  const [ended, liveEnded] = await Promise.all([
    endedSince(db, "batch", contentionSince(batch, now)),
    endedSince(db, "interactive", contentionSince(live, now)),
  ]);
  const slots = running.reduce((n, r) => n + r.n, 0);
  // `n` jobs to end, `rate` of them running side by side: n × mean ÷ rate.
  const after = (n: number, rate: number) =>
    meanMs === null || slots === 0 ? null : (n * meanMs) / rate;
  const ownAhead = new Map<string, number>();
  const ownRunning = new Map(
    running.filter((r) => r.shareClass === "evaluation").map((r) => [r.owner, r.n]),
  );
  walk(new FairOrder(shares, running, batch, { ended, capped: false }), (job, position) => {
    let waitMs = after(position, slots);
    if (job.shareClass === "evaluation") {
      const ahead = ownAhead.get(job.owner) ?? 0;
      ownAhead.set(job.owner, ahead + 1);
      const own = (ownRunning.get(job.owner) ?? 0) + ahead + 1;
      const capWait = after(Math.max(0, own - shares.userCap), shares.userCap);
      if (waitMs !== null && capWait !== null) waitMs = Math.max(waitMs, capWait);
    }
    out.set(job.id, {
      position,
      estimatedStartAt: waitMs === null ? null : new Date(now.getTime() + waitMs).toISOString(),
    });
  });
  walk(
    new FairOrder(shares, liveRunning, live, { ended: liveEnded, capped: false }),
    (job, position) => out.set(job.id, { position, estimatedStartAt: null }),
  );
  return out;
}

/** Takes every job of `order` in turn, numbering them from 1. */
function walk(order: FairOrder, each: (job: QueuedJob, position: number) => void): void {
  let position = 0;
  for (let job = order.peek(); job; job = order.peek()) {
    order.take(job);
    position += 1;
    each(job, position);
  }
}

/** The views with `queue_position` and `estimated_start_at` filled in for their queued episodes. */
export async function withQueuePlaces<T extends EpisodeRequest>(
  db: Kysely<Database>,
  shares: QueueShares,
  views: readonly T[],
  now = new Date(),
): Promise<T[]> {
  const queued = views.flatMap((v) =>
    v.status === "submitted" && v.job_id !== null ? [v.job_id] : [],
  );
  const places = await queuePlaces(db, shares, queued, now);
  return views.map((v) => {
    const place = v.job_id === null ? undefined : places.get(v.job_id);
    return place
      ? { ...v, queue_position: place.position, estimated_start_at: place.estimatedStartAt }
      : v;
  });
}
