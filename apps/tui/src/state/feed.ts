// The event lists on screen: the league's feed and the division's latest episodes, newest first,
// each kept to a fixed number of entries so that hours of watching use the memory of minutes.
import type { CompetitionEvent, CompetitionEventType } from "@gauntlet/core";

export const FEED_LIMIT = 200;
export const EPISODES_LIMIT = 50;

/** Rounds, promotions and relegations, submissions and champions, failures, voids and recomputes; settled episodes and standings refreshes show elsewhere. */
const FEED_TYPES: ReadonlySet<CompetitionEventType> = new Set<CompetitionEventType>([
  "submission_placed",
  "submission_rejected",
  "champion_changed",
  "membership_retired",
  "round_started",
  "round_completed",
  "round_failed",
  "episode_failed",
  "player_promoted",
  "player_relegated",
  "episode_voided",
  "ratings_recomputed",
]);

export function isFeedEvent(event: CompetitionEvent): boolean {
  return FEED_TYPES.has(event.event_type);
}

/** A settled episode of the division. */
export function isEpisodeOf(divisionId: string): (event: CompetitionEvent) => boolean {
  return (event) =>
    (event.event_type === "episode_completed" || event.event_type === "episode_failed") &&
    event.division?.id === divisionId &&
    event.episode_request_id !== null;
}

/** `list` with the events of `incoming` that `keep` accepts: newest first by seq, each seq once, at most `limit`. */
export function mergeEvents(
  list: readonly CompetitionEvent[],
  incoming: readonly CompetitionEvent[],
  keep: (event: CompetitionEvent) => boolean,
  limit: number,
): readonly CompetitionEvent[] {
  const fresh = incoming.filter(keep);
  if (fresh.length === 0) return list;
  // The common case: one event newer than everything shown.
  const newest = list[0];
  if (
    fresh.length === 1 &&
    fresh[0] !== undefined &&
    (newest === undefined || fresh[0].seq > newest.seq)
  )
    return [fresh[0], ...list.slice(0, limit - 1)];
  const bySeq = new Map<number, CompetitionEvent>();
  for (const event of list) bySeq.set(event.seq, event);
  for (const event of fresh) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq).slice(0, limit);
}

export function mergeFeed(
  feed: readonly CompetitionEvent[],
  incoming: readonly CompetitionEvent[],
  limit = FEED_LIMIT,
): readonly CompetitionEvent[] {
  return mergeEvents(feed, incoming, isFeedEvent, limit);
}
