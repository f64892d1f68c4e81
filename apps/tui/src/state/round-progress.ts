// The division's current round: its number and status, and how many of its episodes have
// settled. Counted by episode id, so an episode reported twice (listing, then its event) counts once.
import type { EpisodeRequest, Round, RoundStatus } from "@gauntlet/core";

export interface RoundProgress {
  readonly round: Round;
  /** Episodes in the round, or null when unknown. */
  readonly total: number | null;
  /** Ids of the round's episodes that reached a final state; never more than `total`. */
  readonly settled: ReadonlySet<string>;
  readonly failed: number;
}

const FINAL = new Set<EpisodeRequest["status"]>(["completed", "failed", "cancelled"]);

/** `round_display.episodes` when it is a count (the display block is free-form). */
function displayedTotal(round: Round): number | null {
  const value = round.round_display.episodes;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * Progress from a listing of the round's episodes; `complete` when the listing had every one.
 * `alsoSettled` (episode id → failed) are episodes whose events arrived while the listing was loading.
 */
export function progressFromEpisodes(
  round: Round,
  episodes: readonly EpisodeRequest[],
  complete: boolean,
  alsoSettled: ReadonlyMap<string, boolean> = new Map(),
): RoundProgress {
  const total = complete
    ? Math.max(episodes.length, displayedTotal(round) ?? 0)
    : displayedTotal(round);
  let progress: RoundProgress = { round, total, settled: new Set(), failed: 0 };
  for (const episode of episodes)
    if (FINAL.has(episode.status))
      progress = withEpisodeSettled(progress, episode.id, episode.status !== "completed");
  for (const [id, failed] of alsoSettled) progress = withEpisodeSettled(progress, id, failed);
  return progress;
}

export function withEpisodeSettled(
  progress: RoundProgress,
  episodeId: string,
  failed: boolean,
): RoundProgress {
  if (progress.settled.has(episodeId)) return progress;
  if (progress.total !== null && progress.settled.size >= progress.total) return progress;
  const settled = new Set(progress.settled);
  settled.add(episodeId);
  return { ...progress, settled, failed: progress.failed + (failed ? 1 : 0) };
}

export function withRoundStatus(progress: RoundProgress, status: RoundStatus): RoundProgress {
  return progress.round.status === status
    ? progress
    : { ...progress, round: { ...progress.round, status } };
}

/** Whether `candidate` is the same round or a later one than `current`. */
export function isSameOrLater(current: RoundProgress | null, candidate: Round): boolean {
  return (
    current === null ||
    candidate.id === current.round.id ||
    candidate.round_number > current.round.round_number
  );
}

/** True while the round is still being played (not yet completed or failed). */
export function roundInPlay(progress: RoundProgress | null): boolean {
  return progress?.round.status === "running" || progress?.round.status === "pending";
}
