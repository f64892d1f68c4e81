// The round's episodes that ended since the commissioner last heard, as episode_result and
// episode_failed messages: a completed episode's per-seat scores with its policy version and
// player, and its game's results; a failed or cancelled one's error.
import type { Kysely } from "kysely";

import type { EpisodeFailed, EpisodeResult } from "@gauntlet/core";

import { parseJson } from "../../shared/clock.ts";
import type { Database } from "../../store/schema.ts";

const FINAL = ["completed", "failed", "cancelled"] as const;

export interface Outstanding {
  /** Request ids the commissioner has been told the end of. */
  reported: Set<string>;
}

export async function endedEpisodes(
  db: Kysely<Database>,
  roundId: string,
  reported: ReadonlySet<string>,
): Promise<{ messages: (EpisodeResult | EpisodeFailed)[]; running: number }> {
  const rows = await db
    .selectFrom("episode_requests")
    .select(["id", "commissioner_request_id", "status", "scores", "results", "error", "error_type"])
    .where("round_id", "=", roundId)
    .execute();
  const ended = rows.filter(
    (r) =>
      r.commissioner_request_id != null &&
      !reported.has(r.commissioner_request_id) &&
      (FINAL as readonly string[]).includes(r.status),
  );
  const running = rows.filter((r) => !(FINAL as readonly string[]).includes(r.status)).length;
  if (ended.length === 0) return { messages: [], running };
  const seats = await db
    .selectFrom("episode_participants")
    .select(["episode_request_id", "position", "policy_version_id", "player_id"])
    .where(
      "episode_request_id",
      "in",
      ended.map((e) => e.id),
    )
    .orderBy("position")
    .execute();
  const messages = ended.map((e): EpisodeResult | EpisodeFailed => {
    const requestId = e.commissioner_request_id ?? "";
    if (e.status !== "completed")
      return {
        type: "episode_failed",
        request_id: requestId,
        error: `${e.error_type ?? e.status}: ${e.error ?? "the episode did not complete"}`,
      };
    const scores = parseJson<number[]>(e.scores);
    const results = e.results === null ? null : parseJson<unknown>(e.results);
    return {
      type: "episode_result",
      request_id: requestId,
      scores: seats
        .filter((s) => s.episode_request_id === e.id)
        .map((s) => ({
          policy_version_id: s.policy_version_id ?? "",
          player_id: s.player_id,
          score: scores[s.position] ?? 0,
          scores: { score: scores[s.position] ?? 0 },
        })),
      game_results:
        typeof results === "object" && results !== null && !Array.isArray(results)
          ? (results as Record<string, unknown>)
          : null,
    };
  });
  return { messages, running };
}
