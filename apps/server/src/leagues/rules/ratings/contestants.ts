// An episode's seats as the rating models see them: one contestant per subject.

export interface EpisodeParticipant {
  readonly subjectId: string;
  /** Higher is better. */
  readonly score: number;
  /**
   * An anchor (e.g. a filler policy) plays as an opponent with its current rating but is never
   * updated itself, so it does not come back in the result.
   */
  readonly anchor?: boolean;
}

export interface SettledEpisode {
  readonly participants: readonly EpisodeParticipant[];
  readonly at: Date;
}

export interface Contestant {
  readonly subjectId: string;
  readonly score: number;
  readonly anchor: boolean;
}

/**
 * One contestant per subject, sorted by subject id. A subject in several seats (multiple_seats)
 * is credited once, with the mean of its seats' scores: results against itself say nothing
 * about its strength. Sorting makes every update independent of seat order.
 */
export function contestants(participants: readonly EpisodeParticipant[]): Contestant[] {
  const merged = new Map<string, { sum: number; seats: number; anchor: boolean }>();
  for (const p of participants) {
    if (!Number.isFinite(p.score))
      throw new RangeError(`score of ${p.subjectId} is not a finite number`);
    const seen = merged.get(p.subjectId);
    const anchor = p.anchor === true;
    if (seen) {
      seen.sum += p.score;
      seen.seats += 1;
      seen.anchor &&= anchor;
    } else {
      merged.set(p.subjectId, { sum: p.score, seats: 1, anchor });
    }
  }
  return [...merged.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([subjectId, m]) => ({ subjectId, score: m.sum / m.seats, anchor: m.anchor }));
}
