// A Plackett–Luce fit of a division's settled episodes (Bradley–Terry when every episode has two
// seats): each subject has a strength γ, and the chance that one of the subjects still in the
// running finishes next-best is its share of their γ. The log-strength θ = ln γ is fitted by
// Newton's method on the log-likelihood, which is concave (the prior makes it
// strictly so): a handful of steps, each solving one system the size of the subject count.
// Identical finishing orders are counted once with their multiplicity, so a step costs the number
// of distinct orders, not the number of episodes.
//
// Ties are split into two equally weighted orderings (the tied block ascending and descending),
// so a draw between two seats counts as half a win each. A weak prior — a virtual win and loss
// against a reference of strength 1 — keeps a subject that has won (or lost) everything finite.
import type { SettledEpisode } from "../ratings/index.ts";

/** A finishing order of subject indices, best first, that some episodes share. */
export interface Ordering {
  readonly order: readonly number[];
}

/** Episodes that stand for the same ordering with the same weight (½ each for a tie). */
export interface OrderingGroup {
  readonly ordering: number;
  readonly weight: number;
  /** How many episodes. */
  readonly count: number;
}

export interface CompiledRecord {
  /** Subject ids; the fit's strengths are indexed like these. */
  readonly subjects: readonly string[];
  readonly orderings: readonly Ordering[];
  readonly groups: readonly OrderingGroup[];
  /** Episodes with two or more subjects. */
  readonly episodeCount: number;
}

/** The prior's weight: one virtual win and one virtual loss of this weight against strength 1. */
export const PRIOR_WEIGHT = 0.5;

const at = (values: ArrayLike<number>, i: number): number => values[i] ?? 0;

/**
 * Each episode's subjects grouped by score, best first. A subject in several seats counts once
 * with the mean of its seats (as the ratings do); an episode with fewer than two subjects says
 * nothing and is left out.
 */
export function compileRecord(episodes: readonly SettledEpisode[]): CompiledRecord {
  const index = new Map<string, number>();
  const subjects: string[] = [];
  const orderings: Ordering[] = [];
  const orderingIndex = new Map<string, number>();
  const groups: { ordering: number; weight: number; count: number }[] = [];
  const groupIndex = new Map<string, number>();
  let episodeCount = 0;
  const add = (order: number[], weight: number): void => {
    const ordering = orderingOf(order);
    const key = `${ordering}:${weight}`;
    const g = groupIndex.get(key);
    const group = g === undefined ? undefined : groups[g];
    if (group) group.count += 1;
    else {
      groupIndex.set(key, groups.length);
      groups.push({ ordering, weight, count: 1 });
    }
  };
  const orderingOf = (order: number[]): number => {
    const key = order.join(",");
    let i = orderingIndex.get(key);
    if (i === undefined) {
      i = orderings.length;
      orderings.push({ order });
      orderingIndex.set(key, i);
    }
    return i;
  };
  for (const episode of episodes) {
    const merged = new Map<string, { sum: number; seats: number }>();
    for (const p of episode.participants) {
      if (!Number.isFinite(p.score)) continue;
      const seen = merged.get(p.subjectId);
      if (seen) {
        seen.sum += p.score;
        seen.seats += 1;
      } else merged.set(p.subjectId, { sum: p.score, seats: 1 });
    }
    if (merged.size < 2) continue;
    const scored = [...merged.entries()].map(([id, m]) => {
      let i = index.get(id);
      if (i === undefined) {
        i = subjects.length;
        subjects.push(id);
        index.set(id, i);
      }
      return { i, score: m.sum / m.seats };
    });
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    const blocks: number[][] = [];
    let previous = Number.NaN;
    for (const s of scored) {
      const last = blocks[blocks.length - 1];
      if (last && s.score === previous) last.push(s.i);
      else blocks.push([s.i]);
      previous = s.score;
    }
    episodeCount += 1;
    if (blocks.every((b) => b.length === 1)) add(blocks.flat(), 1);
    else {
      add(blocks.flat(), 0.5);
      add(
        blocks.flatMap((b) => [...b].reverse()),
        0.5,
      );
    }
  }
  return { subjects, orderings, groups, episodeCount };
}

export interface FitOptions {
  /** Episodes per group (a bootstrap resample); each group's own count unless given. */
  readonly counts?: ArrayLike<number>;
  /** Log-strengths to start from (a previous fit converges in a few steps from there). */
  readonly start?: ArrayLike<number>;
  readonly tolerance?: number;
  readonly maxIterations?: number;
}

/** Factors a symmetric positive definite A = L·Lᵀ in place (L in the lower triangle). */
export function cholesky(a: Float64Array, m: number): void {
  for (let j = 0; j < m; j += 1) {
    let d = at(a, j * m + j);
    for (let k = 0; k < j; k += 1) d -= at(a, j * m + k) ** 2;
    const root = Math.sqrt(Math.max(d, 1e-12));
    a[j * m + j] = root;
    for (let i = j + 1; i < m; i += 1) {
      let s = at(a, i * m + j);
      for (let k = 0; k < j; k += 1) s -= at(a, i * m + k) * at(a, j * m + k);
      a[i * m + j] = s / root;
    }
  }
}

/** Solves A·x = b for a symmetric positive definite A (factored in place); returns x. */
export function solve(a: Float64Array, b: Float64Array, m: number): Float64Array {
  cholesky(a, m);
  const x = Float64Array.from(b);
  for (let i = 0; i < m; i += 1) {
    let s = at(x, i);
    for (let k = 0; k < i; k += 1) s -= at(a, i * m + k) * at(x, k);
    x[i] = s / at(a, i * m + i);
  }
  for (let i = m - 1; i >= 0; i -= 1) {
    let s = at(x, i);
    for (let k = i + 1; k < m; k += 1) s -= at(a, k * m + i) * at(x, k);
    x[i] = s / at(a, i * m + i);
  }
  return x;
}

/** Each ordering's weight: its groups' episodes (or a resample's counts) times their weights. */
function multiplicities(record: CompiledRecord, counts?: ArrayLike<number>): Float64Array {
  const multiplicity = new Float64Array(record.orderings.length);
  record.groups.forEach(({ ordering, weight, count }, g) => {
    const n = counts ? at(counts, g) : count;
    multiplicity[ordering] = at(multiplicity, ordering) + n * weight;
  });
  return multiplicity;
}

/**
 * The log-posterior's gradient and negative Hessian at θ (the likelihood times the prior), into
 * `gradient` and `curvature` (m·m, row-major).
 */
function derivatives(
  record: CompiledRecord,
  multiplicity: Float64Array,
  theta: Float64Array,
  gradient: Float64Array,
  curvature: Float64Array,
): void {
  const m = record.subjects.length;
  // The prior: a virtual win and loss against the reference, for every subject.
  curvature.fill(0);
  const gamma = new Float64Array(m);
  for (let i = 0; i < m; i += 1) {
    const t = at(theta, i);
    gamma[i] = Math.exp(t);
    const s = 1 / (1 + Math.exp(-t));
    gradient[i] = PRIOR_WEIGHT * (1 - 2 * s);
    curvature[i * m + i] = 2 * PRIOR_WEIGHT * s * (1 - s);
  }
  const orderings = record.orderings;
  for (let o = 0; o < orderings.length; o += 1) {
    const w = at(multiplicity, o);
    const order = orderings[o]?.order;
    if (w === 0 || order === undefined) continue;
    const n = order.length;
    for (let t = 0; t < n - 1; t += 1) {
      // Stage t: order[t] is chosen among order[t..]; its gradient is 1 − p, the others' −p,
      // and the negative Hessian is diag(p) − p·pᵀ over those still in the running.
      let total = 0;
      for (let u = t; u < n; u += 1) total += at(gamma, at(order, u));
      const chosen = at(order, t);
      gradient[chosen] = at(gradient, chosen) + w;
      for (let u = t; u < n; u += 1) {
        const i = at(order, u);
        const pi = at(gamma, i) / total;
        gradient[i] = at(gradient, i) - w * pi;
        curvature[i * m + i] = at(curvature, i * m + i) + w * pi;
        for (let v = t; v < n; v += 1) {
          const j = at(order, v);
          curvature[i * m + j] = at(curvature, i * m + j) - (w * pi * at(gamma, j)) / total;
        }
      }
    }
  }
}

/**
 * The negative Hessian of the log-posterior at θ (m·m, row-major): the fit's information about
 * the log-strengths, prior included, so it is positive definite.
 */
export function information(record: CompiledRecord, theta: Float64Array): Float64Array {
  const m = record.subjects.length;
  const curvature = new Float64Array(m * m);
  derivatives(record, multiplicities(record), theta, new Float64Array(m), curvature);
  return curvature;
}

/** Log-strengths ln γ by subject index (the prior's reference is 0). */
export function fitPlackettLuce(record: CompiledRecord, options: FitOptions = {}): Float64Array {
  const m = record.subjects.length;
  const tolerance = options.tolerance ?? 1e-9;
  const maxIterations = options.maxIterations ?? 100;
  const theta = new Float64Array(m);
  for (let i = 0; i < m; i += 1) theta[i] = options.start ? at(options.start, i) : 0;
  const multiplicity = multiplicities(record, options.counts);
  const gradient = new Float64Array(m);
  const curvature = new Float64Array(m * m);
  for (let iteration = 0; iteration < maxIterations; iteration += 1) {
    derivatives(record, multiplicity, theta, gradient, curvature);
    const step = solve(curvature, gradient, m);
    // A damped step: never more than 2 nats at once (a far start, a near-separable record).
    let largest = 0;
    for (let i = 0; i < m; i += 1) largest = Math.max(largest, Math.abs(at(step, i)));
    const damping = largest > 2 ? 2 / largest : 1;
    for (let i = 0; i < m; i += 1) theta[i] = at(theta, i) + damping * at(step, i);
    if (largest < tolerance) break;
  }
  return theta;
}
