// When an episode reaches a final state: record `episode_completed` / `episode_failed` for the
// feed and the live stream (its requester's `episode-requests:mine`, and its league's topics
// for round episodes), and tell the caller which round may now settle.
import type { Kysely } from "kysely";

import type { EventBus } from "../events/bus.ts";
import type { EpisodeSettledEvent } from "../events/episode-settled.ts";
import { withEvents } from "../events/record.ts";
import { parseJson } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";

export async function recordEpisodeSettled(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  event: EpisodeSettledEvent,
): Promise<{ roundId: string | null }> {
  const episode = await db
    .selectFrom("episode_requests")
    .selectAll()
    .where("id", "=", event.episodeRequestId)
    .executeTakeFirst();
  if (!episode || (episode.status !== "completed" && episode.status !== "failed"))
    return { roundId: null };
  const league = episode.league_id
    ? await db
        .selectFrom("leagues")
        .selectAll()
        .where("id", "=", episode.league_id)
        .executeTakeFirst()
    : undefined;
  const division = episode.division_id
    ? await db
        .selectFrom("divisions")
        .selectAll()
        .where("id", "=", episode.division_id)
        .executeTakeFirst()
    : undefined;
  const seats = await db
    .selectFrom("episode_participants")
    .select(["position", "player_id", "policy_version_id", "display_name"])
    .where("episode_request_id", "=", episode.id)
    .orderBy("position")
    .execute();
  const scores = parseJson<number[]>(episode.scores);
  const completed = episode.status === "completed";
  const line = seats
    .map((s) => `${s.display_name}${completed ? ` ${scores[s.position] ?? "?"}` : ""}`)
    .join(" vs ");
  await withEvents(db, bus, async (_trx, emit) => {
    emit({
      type: completed ? "episode_completed" : "episode_failed",
      audience: league ? "public" : "owner",
      userId: episode.requester_user_id,
      roundId: episode.round_id,
      episodeRequestId: episode.id,
      experienceRequestId: episode.experience_request_id,
      refs: { league: league ? league : null, division: division ? division : null },
      headline: completed ? `Episode completed: ${line}` : `Episode failed: ${line}`,
      summary: completed ? "" : (episode.error ?? ""),
      payload: {
        episode_request_id: episode.id,
        status: episode.status,
        purpose: episode.purpose,
        experience_request_id: episode.experience_request_id,
        round_id: episode.round_id,
        pool_id: episode.pool_id,
        error_type: episode.error_type,
        seats: seats.map((s) => ({
          position: s.position,
          player_id: s.player_id,
          policy_version_id: s.policy_version_id,
          name: s.display_name,
          score: completed ? (scores[s.position] ?? null) : null,
        })),
      },
    });
  });
  return { roundId: episode.round_id };
}
