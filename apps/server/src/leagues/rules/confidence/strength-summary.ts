// What a fit says about a division's targets: each one's centred log-strength with its interval
// and the ranks it could hold, and the chance one is above another. Read by the row figures.

/** A target the record says something about. */
export interface KnownStrength {
  readonly known: true;
  /** Log-strength, centred on the mean of the known targets. */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** The ranks (among known targets, 1 best) it holds in the middle `level` of the draws. */
  readonly bestRank: number;
  readonly worstRank: number;
}

export type TargetStrength = KnownStrength | { readonly known: false };

export interface StrengthSummary {
  /** By target, in the order given. */
  readonly targets: readonly TargetStrength[];
  /** Episodes the figures rest on (those with two or more subjects). */
  readonly episodes: number;
  /** The chance target a is stronger than target b; null if either is unknown. */
  pAbove(a: number, b: number): number | null;
  /** True when the 95% interval of a's strength minus b's lies within ±{@link TIE_ELO}. */
  tied(a: number, b: number): boolean;
}

/**
 * Two rows closer than this (Elo, or its log-strength on other scales) count as even: telling
 * them apart would take thousands of games, so once the fit vouches that their difference is
 * that small, their order is settled as a tie (twins entered twice settle, and a division of
 * them goes quiet).
 */
export const TIE_ELO = 50;
/** {@link TIE_ELO} in log-strength. */
export const TIE_NATS = (TIE_ELO * Math.LN10) / 400;

/** The q-quantile of sorted values, linearly interpolated. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const position = (n - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.min(n - 1, lower + 1);
  const a = sorted[lower] ?? 0;
  const b = sorted[upper] ?? 0;
  return a + (b - a) * (position - lower);
}

/** The same summary with its targets in another order: `order[i]` is the old place of the new i. */
export function reordered(summary: StrengthSummary, order: readonly number[]): StrengthSummary {
  return {
    targets: order.map((i) => summary.targets[i] ?? { known: false }),
    episodes: summary.episodes,
    pAbove: (a, b) => summary.pAbove(order[a] ?? -1, order[b] ?? -1),
    tied: (a, b) => summary.tied(order[a] ?? -1, order[b] ?? -1),
  };
}
