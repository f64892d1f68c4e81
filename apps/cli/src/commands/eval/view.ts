// An evaluation for people: its fields, its episodes, how many have settled.
import type { ExperienceRequestDetail, ExperienceRequestRow } from "@gauntlet/core";

import type { IOStreams } from "../../io.ts";
import { shortTime, writeFields, writeTable } from "../../output.ts";
import { outcomeOf, recordBySeat, type Mine } from "../episode/seats-view.ts";

export const progressOf = (r: ExperienceRequestRow) =>
  `${r.completed_count + r.failed_count + r.cancelled_count}/${r.episode_count}`;

export function writeRequest(io: IOStreams, r: ExperienceRequestDetail): void {
  writeFields(io, [
    ["id", r.id],
    ["status", r.status],
    ["coworld", `${r.coworld_name} ${r.coworld_version} (${r.coworld_id})`],
    ["variant", r.variant_id],
    ["league", r.league_id],
    ["division", r.division_id],
    [
      "episodes",
      `${r.episode_count}: ${r.completed_count} completed, ${r.running_count} running, ${r.pending_count + r.submitted_count} queued, ${r.failed_count} failed, ${r.cancelled_count} cancelled`,
    ],
    ["notes", r.notes],
    ["error", r.error],
    ["created", shortTime(r.created_at)],
    ["completed", shortTime(r.completed_at)],
  ]);
}

/** A queued episode's place on the work queue and when it should start: `#3 ~2026-05-01 10:31:07`. */
export function queueOf(e: ExperienceRequestDetail["episodes"][number]): string | null {
  if (e.queue_position === null) return null;
  const at = e.estimated_start_at === null ? "" : ` ~${shortTime(e.estimated_start_at)}`;
  return `#${e.queue_position}${at}`;
}

export function writeEpisodes(io: IOStreams, episodes: ExperienceRequestDetail["episodes"]): void {
  writeTable(
    io,
    ["episode", "queue", "scores", "result", "created"],
    episodes.map((e) => [
      e.id,
      queueOf(e),
      e.scores.map((s) => s.score).join(" "),
      outcomeOf(e),
      shortTime(e.created_at),
    ]),
    "no episodes",
  );
}

/** Each seat's record over the evaluation's episodes; `*` marks the caller's seats. */
export function writeRecord(
  io: IOStreams,
  episodes: ExperienceRequestDetail["episodes"],
  mine: Mine | null,
): void {
  const records = recordBySeat(episodes, mine);
  if (records.length === 0) return;
  io.out.write("\n");
  writeTable(
    io,
    ["seat", "player", "won", "lost", "drawn", "failed", "mean score"],
    records.map((r) => [
      `${r.position}${r.mine ? " *" : ""}`,
      r.name,
      r.wins,
      r.losses,
      r.draws,
      r.failures,
      r.meanScore === null ? null : Number(r.meanScore.toFixed(2)),
    ]),
  );
  if (records.some((r) => r.mine)) io.out.write("* your seat\n");
}
