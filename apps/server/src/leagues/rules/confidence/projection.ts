// The strengths a Bradley–Terry fit of a record converges to, given the true chance of each
// game's result: the strengths that best fit those chances over the games actually played (the
// maximum of the expected log-likelihood). For a transitive field they are the true strengths,
// whatever was played; for players with no Bradley–Terry strength of their own (a > b > c > a)
// they depend on the pairings, and they are what an interval from the fit can hold. For the
// ranking bench, which measures the intervals' coverage against them.
import { solve } from "./plackett-luce.ts";

const at = (values: ArrayLike<number>, i: number): number => values[i] ?? 0;

/** A game played between a and b, with the true chance that a wins. */
export interface PlayedGame {
  readonly a: string;
  readonly b: string;
  readonly pA: number;
}

/**
 * Log-strengths by id. `stated` gives each player's stated log-strength: the start, and a pull
 * too weak to move a player the games place, which fixes the level of a part of the field that
 * has not met the rest.
 */
export function projectedStrengths(
  games: readonly PlayedGame[],
  stated: ReadonlyMap<string, number>,
): Map<string, number> {
  const ids = [...stated.keys()];
  const index = new Map(ids.map((id, i) => [id, i]));
  const m = ids.length;
  // Games grouped by ordered pair: count and summed chance of a win for the first.
  const pairs = new Map<string, { a: number; b: number; n: number; wins: number }>();
  for (const g of games) {
    const a = index.get(g.a);
    const b = index.get(g.b);
    if (a === undefined || b === undefined || a === b) continue;
    const key = `${a}:${b}`;
    const seen = pairs.get(key) ?? { a, b, n: 0, wins: 0 };
    seen.n += 1;
    seen.wins += g.pA;
    pairs.set(key, seen);
  }
  const anchor = Float64Array.from(ids, (id) => stated.get(id) ?? 0);
  const theta = Float64Array.from(anchor);
  const pull = 1e-6;
  for (let iteration = 0; iteration < 100; iteration += 1) {
    const gradient = new Float64Array(m);
    const information = new Float64Array(m * m);
    for (let i = 0; i < m; i += 1) {
      gradient[i] = -pull * (at(theta, i) - at(anchor, i));
      information[i * m + i] = pull;
    }
    for (const { a, b, n, wins } of pairs.values()) {
      const q = 1 / (1 + Math.exp(at(theta, b) - at(theta, a)));
      const w = n * q * (1 - q);
      gradient[a] = at(gradient, a) + wins - n * q;
      gradient[b] = at(gradient, b) - wins + n * q;
      information[a * m + a] = at(information, a * m + a) + w;
      information[b * m + b] = at(information, b * m + b) + w;
      information[a * m + b] = at(information, a * m + b) - w;
      information[b * m + a] = at(information, b * m + a) - w;
    }
    const step = solve(information, gradient, m);
    let largest = 0;
    for (let i = 0; i < m; i += 1) largest = Math.max(largest, Math.abs(at(step, i)));
    // A damped step, as in the fit: a far start must not overshoot.
    const damping = largest > 2 ? 2 / largest : 1;
    for (let i = 0; i < m; i += 1) theta[i] = at(theta, i) + damping * at(step, i);
    if (largest < 1e-10) break;
  }
  return new Map(ids.map((id, i) => [id, at(theta, i)]));
}
