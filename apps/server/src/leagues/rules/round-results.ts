// A settled round's results (GET /v2/rounds/{id} `results`): one rank and score per player.
// The round score is the mean of the player's episode scores (the max under score ranking with
// `aggregation: max`), a player in several seats of one episode counting once at its mean.
import type { LadderSettings } from "@gauntlet/core";

import { contestants, type SettledEpisode } from "./ratings/contestants.ts";

export interface RoundResult {
  readonly subjectId: string;
  /** Equal round scores share a rank. */
  readonly rank: number;
  readonly score: number;
  readonly episodes: number;
}

export function roundResults(
  episodes: readonly SettledEpisode[],
  settings: LadderSettings,
): RoundResult[] {
  const useMax = settings.ranking === "score" && settings.score.aggregation === "max";
  const acc = new Map<string, { sum: number; max: number; episodes: number }>();
  for (const episode of episodes) {
    for (const c of contestants(episode.participants)) {
      if (c.anchor) continue;
      const seen = acc.get(c.subjectId);
      if (seen) {
        seen.sum += c.score;
        seen.max = Math.max(seen.max, c.score);
        seen.episodes += 1;
      } else {
        acc.set(c.subjectId, { sum: c.score, max: c.score, episodes: 1 });
      }
    }
  }
  const scored = [...acc.entries()]
    .map(([subjectId, a]) => ({
      subjectId,
      score: useMax ? a.max : a.sum / a.episodes,
      episodes: a.episodes,
    }))
    .sort(
      (a, b) =>
        b.score - a.score || (a.subjectId < b.subjectId ? -1 : a.subjectId > b.subjectId ? 1 : 0),
    );
  return scored.map((r) => ({ ...r, rank: 1 + scored.filter((o) => o.score > r.score).length }));
}
