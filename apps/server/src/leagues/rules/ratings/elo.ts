// Multi-player Elo. Each episode scores every pair of its contestants; a contestant's change is
// K/(N−1) times the sum over its opponents of (actual − expected), so one episode moves a
// rating by at most K whatever N is, and the changes of one episode sum to zero.
//
// As in the platform ladder, ratings move once per round: episodes accumulate a pending change
// (against ratings frozen at the round's start), and closing the round folds the round's
// changes into the rating by `round_scoring` (mean of the episodes' changes, or their EWMA).
import type { EloSettings } from "@gauntlet/core";

import type { Contestant } from "./contestants.ts";

export interface EloState {
  readonly kind: "elo";
  readonly rating: number;
  /** Rated episodes settled, all rounds. */
  readonly episodes: number;
  /** The change waiting for the round to close (a mean or an EWMA of episode changes). */
  readonly pendingDelta: number;
  readonly pendingEpisodes: number;
}

export function initialEloState(settings: EloSettings): EloState {
  return {
    kind: "elo",
    rating: settings.initial,
    episodes: 0,
    pendingDelta: 0,
    pendingEpisodes: 0,
  };
}

/** Probability that a player rated `rating` beats one rated `opponent`. */
export function eloExpected(rating: number, opponent: number): number {
  return 1 / (1 + 10 ** ((opponent - rating) / 400));
}

/** The actual result for the first of a pair: 1, ½ or 0; or score-margin based when a scale is set. */
export function eloOutcome(
  score: number,
  opponentScore: number,
  marginScale: number | null,
): number {
  if (marginScale !== null)
    return Math.min(1, Math.max(0, 0.5 + (score - opponentScore) / (2 * marginScale)));
  return score > opponentScore ? 1 : score < opponentScore ? 0 : 0.5;
}

/** Each contestant's rating change for one episode, against the given ratings. */
export function eloEpisodeDeltas(
  players: readonly { readonly rating: number; readonly score: number }[],
  k: number,
  marginScale: number | null,
): number[] {
  const n = players.length;
  const deltas = new Array<number>(n).fill(0);
  if (n < 2) return deltas;
  const scale = k / (n - 1);
  for (let i = 0; i < n; i += 1) {
    const a = players[i];
    if (!a) continue;
    for (let j = i + 1; j < n; j += 1) {
      const b = players[j];
      if (!b) continue;
      // One term per pair, added to one side and taken from the other: exact conservation.
      const d =
        scale * (eloOutcome(a.score, b.score, marginScale) - eloExpected(a.rating, b.rating));
      deltas[i] = (deltas[i] ?? 0) + d;
      deltas[j] = (deltas[j] ?? 0) - d;
    }
  }
  return deltas;
}

function withPending(state: EloState, delta: number, settings: EloSettings): EloState {
  const n = state.pendingEpisodes;
  const pendingDelta =
    n === 0
      ? delta
      : settings.round_scoring === "mean"
        ? state.pendingDelta + (delta - state.pendingDelta) / (n + 1)
        : state.pendingDelta + settings.ewma_alpha * (delta - state.pendingDelta);
  return { ...state, episodes: state.episodes + 1, pendingDelta, pendingEpisodes: n + 1 };
}

/** New states of the non-anchor contestants; ratings stay until {@link closeEloRound}. */
export function applyEloEpisode(
  states: ReadonlyMap<string, EloState>,
  players: readonly Contestant[],
  settings: EloSettings,
): Map<string, EloState> {
  const updated = new Map<string, EloState>();
  if (players.length < 2) return updated;
  const current = players.map((p) => states.get(p.subjectId) ?? initialEloState(settings));
  const deltas = eloEpisodeDeltas(
    players.map((p, i) => ({ rating: current[i]?.rating ?? settings.initial, score: p.score })),
    settings.k,
    settings.margin_scale,
  );
  players.forEach((p, i) => {
    const state = current[i];
    if (p.anchor || !state) return;
    updated.set(p.subjectId, withPending(state, deltas[i] ?? 0, settings));
  });
  return updated;
}

/** Folds the round's pending change into the rating; unchanged if nothing is pending. */
export function closeEloRound(state: EloState): EloState {
  if (state.pendingEpisodes === 0) return state;
  return {
    ...state,
    rating: state.rating + state.pendingDelta,
    pendingDelta: 0,
    pendingEpisodes: 0,
  };
}
