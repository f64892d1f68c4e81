// Score standing: a player's episode scores folded into O(1) state. All three aggregations are
// kept at once, so a commissioner who switches `aggregation` sees the new standing at once,
// without a replay of past episodes.
//
// The EWMA is time-weighted: an episode weighs 2^(−age / half_life), age measured back from the
// newest episode seen. Keeping the decayed sum and weight relative to that newest time makes
// the result independent of the order in which episodes settle.
import type { ScoreSettings } from "@gauntlet/core";

export interface ScoreState {
  readonly kind: "score";
  readonly episodes: number;
  readonly mean: number;
  readonly max: number;
  readonly decayedSum: number;
  readonly decayedWeight: number;
  /** Epoch milliseconds of the newest episode seen; the decay reference. */
  readonly newestAt: number;
}

const HOUR_MS = 3_600_000;

export function initialScoreState(): ScoreState {
  // Finite numbers only, so the state survives a JSON column.
  return {
    kind: "score",
    episodes: 0,
    mean: 0,
    max: 0,
    decayedSum: 0,
    decayedWeight: 0,
    newestAt: 0,
  };
}

export function addScore(
  state: ScoreState,
  score: number,
  at: Date,
  settings: ScoreSettings,
): ScoreState {
  const t = at.getTime();
  if (!Number.isFinite(t)) throw new RangeError("episode time is not a valid date");
  const halfLifeMs = settings.half_life_hours * HOUR_MS;
  let { decayedSum, decayedWeight, newestAt } = state;
  if (state.episodes === 0) {
    decayedSum = score;
    decayedWeight = 1;
    newestAt = t;
  } else if (t >= newestAt) {
    const decay = 2 ** (-(t - newestAt) / halfLifeMs);
    decayedSum = decayedSum * decay + score;
    decayedWeight = decayedWeight * decay + 1;
    newestAt = t;
  } else {
    const weight = 2 ** (-(newestAt - t) / halfLifeMs);
    decayedSum += score * weight;
    decayedWeight += weight;
  }
  const episodes = state.episodes + 1;
  return {
    kind: "score",
    episodes,
    mean: state.mean + (score - state.mean) / episodes,
    max: state.episodes === 0 ? score : Math.max(state.max, score),
    decayedSum,
    decayedWeight,
    newestAt,
  };
}

export function scoreStanding(state: ScoreState, settings: ScoreSettings): number {
  if (state.episodes === 0) return settings.initial;
  switch (settings.aggregation) {
    case "mean":
      return state.mean;
    case "max":
      return state.max;
    case "ewma":
      // An episode far older than the newest can underflow to weight 0; the others still count.
      return state.decayedWeight > 0 ? state.decayedSum / state.decayedWeight : state.mean;
  }
}
