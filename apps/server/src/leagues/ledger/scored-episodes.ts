// Which episodes of a round count, and how: the one rule a settling round and a recompute share,
// so that ratings are a pure function of the record. A completed episode counts as played. A
// failure a seat caused (the game declared its player failed, or its runnable ran out of memory
// or into a limit, naming the seat) counts against that seat only: a loss to each other seat
// (under score ranking, a score of 0 for it alone). A failure no seat caused (runner lost, game
// crashed or unhealthy, the whole game's timeout, infrastructure), a cancellation and a void
// count for nobody — otherwise a broken runner would decide who wins.
import type { Kysely, Transaction } from "kysely";

import type { LadderSettings } from "@gauntlet/core";

import { parseJson } from "../../shared/clock.ts";
import type { Database } from "../../store/schema.ts";
import type { SettledEpisode } from "../rules/index.ts";

const SEAT_FAULTS = new Set([
  "player_failure",
  "out_of_memory",
  "resource_limit",
  "policy_timeout",
]);

export interface RecordedEpisode {
  id: string;
  status: string;
  error_type: string | null;
  failed_policy_index: number | null;
  scores: string;
  updated_at: string;
  voided: boolean;
  seats: { position: number; subjectId: string; anchor: boolean }[];
}

/** The rated episodes one recorded episode stands for: none, itself, or a seat's losses. */
export function scoredEpisodes(e: RecordedEpisode, settings: LadderSettings): SettledEpisode[] {
  if (e.voided) return [];
  const at = new Date(e.updated_at);
  if (e.status === "completed") {
    const scores = parseJson<number[]>(e.scores);
    return [
      {
        at,
        participants: e.seats.map((s) => ({
          subjectId: s.subjectId,
          anchor: s.anchor,
          score: scores[s.position] ?? 0,
        })),
      },
    ];
  }
  if (e.status !== "failed" || e.error_type === null || !SEAT_FAULTS.has(e.error_type)) return [];
  const faulty = e.seats.find((s) => s.position === e.failed_policy_index);
  if (!faulty) return [];
  const loser = { subjectId: faulty.subjectId, anchor: faulty.anchor, score: 0 };
  if (settings.ranking === "score") return faulty.anchor ? [] : [{ at, participants: [loser] }];
  return e.seats
    .filter((s) => s.subjectId !== faulty.subjectId)
    .map((s) => ({
      at,
      participants: [{ subjectId: s.subjectId, anchor: s.anchor, score: 1 }, loser],
    }));
}

/** Subject of a seat: its player, or the filler policy version (an anchor, never ranked). */
export function seatSubject(
  playerId: string | null,
  policyVersionId: string | null,
): { subjectId: string; anchor: boolean } {
  return playerId !== null
    ? { subjectId: playerId, anchor: false }
    : { subjectId: `filler:${policyVersionId ?? "unknown"}`, anchor: true };
}

/** The final episodes of these rounds with their seats and voids, each round's in the order they finished. */
export async function recordedEpisodes(
  db: Kysely<Database> | Transaction<Database>,
  roundIds: readonly string[],
): Promise<Map<string, RecordedEpisode[]>> {
  const out = new Map<string, RecordedEpisode[]>();
  if (roundIds.length === 0) return out;
  const rows = await db
    .selectFrom("episode_requests as e")
    .leftJoin("episode_voids as v", "v.episode_request_id", "e.id")
    .select([
      "e.id",
      "e.round_id",
      "e.status",
      "e.error_type",
      "e.failed_policy_index",
      "e.scores",
      "e.updated_at",
      "v.episode_request_id as voided_id",
    ])
    .where("e.round_id", "in", roundIds)
    .where("e.status", "in", ["completed", "failed", "cancelled"])
    .execute();
  const seats = rows.length
    ? await db
        .selectFrom("episode_participants")
        .select(["episode_request_id", "position", "player_id", "policy_version_id"])
        .where(
          "episode_request_id",
          "in",
          rows.map((r) => r.id),
        )
        .orderBy("position")
        .execute()
    : [];
  const seatsOf = new Map<string, RecordedEpisode["seats"]>();
  for (const s of seats)
    seatsOf.set(s.episode_request_id, [
      ...(seatsOf.get(s.episode_request_id) ?? []),
      { position: s.position, ...seatSubject(s.player_id, s.policy_version_id) },
    ]);
  // In the order they finished (an EWMA of a round's episodes depends on it), ties by id.
  rows.sort((a, b) =>
    a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : a.id < b.id ? -1 : 1,
  );
  for (const r of rows) {
    if (r.round_id === null) continue;
    out.set(r.round_id, [
      ...(out.get(r.round_id) ?? []),
      {
        id: r.id,
        status: r.status,
        error_type: r.error_type,
        failed_policy_index: r.failed_policy_index,
        scores: r.scores,
        updated_at: r.updated_at,
        voided: r.voided_id !== null,
        seats: seatsOf.get(r.id) ?? [],
      },
    ]);
  }
  return out;
}
