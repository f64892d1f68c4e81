// Why a running round is not done yet: its episodes that wait in the work queue, where the first
// of them stands in the order the runners lease the batch lane and when it should start
// (episodes/queue-position.ts: by share, not by age; jobs with a person's seat have a lane of
// their own).
import type { Kysely } from "kysely";

import type { RoundWaiting } from "@gauntlet/core";

import { queuePlaces } from "../episodes/queue-position.ts";
import type { QueueShares } from "../episodes/queue-shares.ts";
import type { Database } from "../store/schema.ts";

export async function roundWaiting(
  db: Kysely<Database>,
  roundId: string,
  shares: QueueShares,
): Promise<RoundWaiting | null> {
  const jobs = await db
    .selectFrom("jobs as j")
    .innerJoin("episode_requests as e", "e.id", "j.episode_request_id")
    .select(["j.id", "j.status", "j.created_at"])
    .where("e.round_id", "=", roundId)
    .where("j.status", "in", ["queued", "leased"])
    .orderBy("j.created_at")
    .orderBy("j.id")
    .execute();
  const queued = jobs.filter((j) => j.status === "queued");
  if (queued.length === 0) return null;
  const places = await queuePlaces(
    db,
    shares,
    queued.map((j) => j.id),
  );
  // A job another runner took meanwhile has no place: the round then waits on the rest.
  let first: { position: number; estimatedStartAt: string | null } | undefined;
  for (const job of queued) {
    const place = places.get(job.id);
    if (place && (!first || place.position < first.position)) first = place;
  }
  return {
    reason: "waiting for a runner",
    queued_episodes: queued.length,
    running_episodes: jobs.length - queued.length,
    queue_position: first?.position ?? 1,
    estimated_start_at: first?.estimatedStartAt ?? null,
  };
}
