// How sure the fit is: the Plackett–Luce fit of the record, refitted on resamples of its
// episodes (a bootstrap over episodes). The resamples are Poisson: each episode is drawn a
// Poisson(1) number of times, so the episodes of one finishing order are drawn Poisson(count)
// times together — one draw per distinct order, not one per episode. Every figure of a standings row —
// its interval, the ranks it could hold, the chance it is truly above the next row — is read off
// the resampled strengths. Seeded, so the same record gives the same figures.
import type { SettledEpisode } from "../ratings/index.ts";
import { createRng, type Rng } from "../seating/prng.ts";
import { compileRecord, fitPlackettLuce } from "./plackett-luce.ts";

export interface BootstrapOptions {
  /** Resamples drawn; 200 unless given. */
  readonly resamples?: number;
  readonly seed?: string | number;
  /** Two-sided coverage of the intervals; 0.95 unless given. */
  readonly level?: number;
}

/** A target the record says something about. */
export interface KnownStrength {
  readonly known: true;
  /** Log-strength, centred on the mean of the known targets. */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** The ranks (among known targets, 1 best) it holds in the middle `level` of the resamples. */
  readonly bestRank: number;
  readonly worstRank: number;
}

export type TargetStrength = KnownStrength | { readonly known: false };

export interface StrengthSummary {
  /** By target, in the order given. */
  readonly targets: readonly TargetStrength[];
  /** Episodes the figures rest on (those with two or more subjects). */
  readonly episodes: number;
  /** Share of resamples in which target a is stronger than target b (ties count half); null if either is unknown. */
  pAbove(a: number, b: number): number | null;
}

/** A Poisson(mean) draw: Knuth's product of uniforms when small, else the normal approximation. */
export function poisson(mean: number, rng: Rng): number {
  if (mean <= 0) return 0;
  if (mean < 30) {
    const limit = Math.exp(-mean);
    let k = 0;
    let p = rng.next();
    while (p > limit) {
      k += 1;
      p *= rng.next();
    }
    return k;
  }
  const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.max(0, Math.round(mean + Math.sqrt(mean) * z));
}

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

/**
 * Fits the record and resamples it. `targets` are the subjects to report (a division's current
 * champions); other subjects of the record (past versions, fillers) are fitted too — their games
 * tell about the targets — but centred out and not ranked.
 */
export function bootstrapStrengths(
  record: readonly SettledEpisode[],
  targets: readonly string[],
  options: BootstrapOptions = {},
): StrengthSummary {
  const resamples = options.resamples ?? 200;
  const level = options.level ?? 0.95;
  const compiled = compileRecord(record);
  const indexOf = new Map(compiled.subjects.map((s, i) => [s, i]));
  const slots = targets.map((t) => indexOf.get(t));
  const known = slots.flatMap((s, t) => (s === undefined ? [] : [{ t, s }]));
  const k = known.length;
  const episodes = compiled.episodeCount;
  const unknownSummary: StrengthSummary = {
    targets: targets.map(() => ({ known: false })),
    episodes,
    pAbove: () => null,
  };
  if (k === 0) return unknownSummary;

  const centred = (theta: Float64Array): Float64Array => {
    let mean = 0;
    for (const { s } of known) mean += theta[s] ?? 0;
    mean /= k;
    return Float64Array.from(known, ({ s }) => (theta[s] ?? 0) - mean);
  };
  const full = fitPlackettLuce(compiled);
  const estimate = centred(full);

  const rng = createRng(`${options.seed ?? "bootstrap"}:${episodes}`);
  const samples: Float64Array[] = [];
  const counts = new Float64Array(compiled.groups.length);
  for (let b = 0; b < resamples; b += 1) {
    compiled.groups.forEach((g, i) => {
      counts[i] = poisson(g.count, rng);
    });
    samples.push(centred(fitPlackettLuce(compiled, { counts, start: full, tolerance: 1e-6 })));
  }

  const tail = (1 - level) / 2;
  const figures: KnownStrength[] = known.map((_, j) => {
    const values = Float64Array.from(samples, (s) => s[j] ?? 0).sort();
    const ranks = Float64Array.from(samples, (s) => {
      const mine = s[j] ?? 0;
      let rank = 1;
      for (let other = 0; other < k; other += 1) if ((s[other] ?? 0) > mine) rank += 1;
      return rank;
    }).sort();
    return {
      known: true,
      estimate: estimate[j] ?? 0,
      low: quantile(values, tail),
      high: quantile(values, 1 - tail),
      bestRank: Math.floor(quantile(ranks, tail)),
      worstRank: Math.ceil(quantile(ranks, 1 - tail)),
    };
  });
  const column = new Map(known.map(({ t }, j) => [t, j]));
  return {
    targets: targets.map((_, t) => {
      const j = column.get(t);
      return j === undefined ? { known: false } : (figures[j] ?? { known: false });
    }),
    episodes,
    pAbove(a, b) {
      const ja = column.get(a);
      const jb = column.get(b);
      if (ja === undefined || jb === undefined) return null;
      if (samples.length === 0) return 0.5;
      let above = 0;
      for (const s of samples) {
        const d = (s[ja] ?? 0) - (s[jb] ?? 0);
        above += d > 0 ? 1 : d === 0 ? 0.5 : 0;
      }
      return above / samples.length;
    },
  };
}
