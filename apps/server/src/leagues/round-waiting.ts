// Why a running round is not done yet: its episodes that wait in the work queue, and where the
// first of them stands in the batch lane (jobs with a person's seat have a lane of their own,
// so they are not counted ahead of it).
import type { Kysely } from "kysely";

import type { RoundWaiting } from "@gauntlet/core";

import type { Database } from "../store/schema.ts";

export async function roundWaiting(
  db: Kysely<Database>,
  roundId: string,
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
  const [first] = queued;
  if (first === undefined) return null;
  const ahead = await db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "=", "queued")
    .where((eb) =>
      eb.or([
        eb("created_at", "<", first.created_at),
        eb.and([eb("created_at", "=", first.created_at), eb("id", "<", first.id)]),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("episode_participants as hp")
            .select("hp.position")
            .whereRef("hp.episode_request_id", "=", "jobs.episode_request_id")
            .where("hp.human_relay", "is not", null),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return {
    reason: "waiting for a runner",
    queued_episodes: queued.length,
    running_episodes: jobs.length - queued.length,
    queue_position: Number(ahead.n) + 1,
  };
}
