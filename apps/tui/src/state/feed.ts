// The feed pane: what happened in the league, newest first, kept to a fixed number of entries
// so that hours of watching use the same memory as minutes.
import type { CompetitionEvent, CompetitionEventType } from "@gauntlet/core";

export const FEED_LIMIT = 200;

/** Rounds, promotions and relegations, submissions and champions, failures; settled episodes and standings refreshes show elsewhere. */
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
]);

export function isFeedEvent(event: CompetitionEvent): boolean {
  return FEED_TYPES.has(event.event_type);
}

/** `feed` with the feed events of `incoming` added: newest first by seq, each seq once, at most `limit`. */
export function mergeFeed(feed: readonly CompetitionEvent[], incoming: readonly CompetitionEvent[], limit = FEED_LIMIT): readonly CompetitionEvent[] {
  const fresh = incoming.filter(isFeedEvent);
  if (fresh.length === 0) return feed;
  const bySeq = new Map<number, CompetitionEvent>();
  for (const event of feed) bySeq.set(event.seq, event);
  for (const event of fresh) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq).slice(0, limit);
}
