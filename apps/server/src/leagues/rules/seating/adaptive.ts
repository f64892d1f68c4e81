// adaptive: spends a round's episodes where the standings are least certain. Every pair of
// entrants is weighed by how much their 95% intervals overlap (the chance the published order
// between them is wrong, from the intervals read as normal), more toward the top of the table;
// tables are drawn by that weight. A floor of exploration comes first: an entrant the record
// knows nothing about (new, or a new champion), or one with fewer than half the mean episodes,
// gets a table every round. When every row is settled the division spends nothing until
// something changes (planRound answers `settled`).
import type { Rng } from "./prng.ts";
import { byPlayerId, tableEpisodes, type PlannedPool, type RatedEntrant } from "./seats.ts";

/** An entrant with what its standings row says about its certainty. */
export interface CertainEntrant extends RatedEntrant {
  /** The row's 95% interval; null or absent while the record says nothing about it. */
  readonly interval?: { readonly low: number; readonly high: number } | null;
  readonly settled?: boolean;
  /** Episodes the entrant has played (its row's episodes_played). */
  readonly episodes?: number;
}

/** Tables per round: each entrant sits about twice, whatever the seats per table. */
export function adaptiveTableCount(entrants: number, playersPerEpisode: number): number {
  return Math.max(1, Math.round((2 * entrants) / playersPerEpisode));
}

/** Below this share of the mean episodes an entrant is owed a table (the exploration floor). */
export const FLOOR_SHARE = 0.5;
/** Every pair keeps this much weight, so no pair is ever impossible. */
const BASE_WEIGHT = 0.01;

/** Φ, the standard normal CDF (Abramowitz–Stegun 7.1.26, error below 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export function allSettled(entrants: readonly CertainEntrant[]): boolean {
  return entrants.length > 0 && entrants.every((e) => e.settled === true && e.interval);
}

interface Belief {
  readonly entrant: CertainEntrant;
  readonly mean: number;
  readonly sd: number;
  readonly known: boolean;
}

function beliefs(entrants: readonly CertainEntrant[]): Belief[] {
  const widths = entrants.flatMap((e) => (e.interval ? [e.interval.high - e.interval.low] : []));
  // Nothing known of an entrant: as unsure as the least certain known one, twice over.
  const unknownSd = widths.length ? (2 * Math.max(...widths)) / 3.92 : 1;
  return entrants.map((entrant) =>
    entrant.interval
      ? {
          entrant,
          mean: (entrant.interval.low + entrant.interval.high) / 2,
          sd: Math.max(1e-9, (entrant.interval.high - entrant.interval.low) / 3.92),
          known: true,
        }
      : { entrant, mean: entrant.rating, sd: Math.max(unknownSd, 1e-9), known: false },
  );
}

/** Pair weights: overlap (1 when a coin flip, 0 when clear) times 1/√(the better one's place). */
export function pairWeights(entrants: readonly CertainEntrant[]): number[][] {
  const b = beliefs(entrants);
  const place = new Map(
    [...b.keys()].sort((x, y) => (b[y]?.mean ?? 0) - (b[x]?.mean ?? 0)).map((i, p) => [i, p + 1]),
  );
  return b.map((x, i) =>
    b.map((y, j) => {
      if (i === j) return 0;
      const z = (x.mean - y.mean) / Math.sqrt(x.sd ** 2 + y.sd ** 2);
      const overlap = 1 - Math.abs(2 * normalCdf(z) - 1);
      const top = Math.min(place.get(i) ?? 1, place.get(j) ?? 1);
      return BASE_WEIGHT + overlap / Math.sqrt(top);
    }),
  );
}

/** Adds to `table` the k−1 entrants with the most weight toward those already in it. */
function fill(table: number[], k: number, weights: number[][], rng: Rng): number[] {
  const n = weights.length;
  while (table.length < Math.min(k, n)) {
    let best = -1;
    let bestScore = -Infinity;
    for (let j = 0; j < n; j += 1) {
      if (table.includes(j)) continue;
      const score = table.reduce((s, i) => s + (weights[i]?.[j] ?? 0), 0) + rng.next() * 1e-6;
      if (score > bestScore) {
        bestScore = score;
        best = j;
      }
    }
    if (best < 0) break;
    table.push(best);
  }
  return table;
}

/** Draws one partner of `i` with chance proportional to weight. */
function drawPartner(i: number, weights: number[][], rng: Rng): number {
  const row = weights[i] ?? [];
  const total = row.reduce((s, w) => s + w, 0);
  let pick = rng.next() * total;
  for (let j = 0; j < row.length; j += 1) {
    pick -= row[j] ?? 0;
    if (pick < 0 && j !== i) return j;
  }
  return row.length - 1 === i ? 0 : row.length - 1;
}

/** One pool per table. Needs n ≥ playersPerEpisode ≥ 2. */
export function adaptive(
  players: readonly CertainEntrant[],
  playersPerEpisode: number,
  episodesPerPairing: number,
  rng: Rng,
  tables = adaptiveTableCount(players.length, playersPerEpisode),
): PlannedPool[] {
  const entrants = byPlayerId(players);
  const n = entrants.length;
  const k = playersPerEpisode;
  if (k < 1 || n < k) throw new RangeError(`adaptive needs at least ${k} players, got ${n}`);
  const weights = pairWeights(entrants);
  const chosen: number[][] = [];

  // The floor: the unknown and the starved first, fewest episodes first.
  const mean = entrants.reduce((s, e) => s + (e.episodes ?? 0), 0) / n;
  const owed = entrants
    .map((e, i) => ({ i, episodes: e.episodes ?? 0, tie: rng.next() }))
    .filter(({ i, episodes }) => !entrants[i]?.interval || episodes < FLOOR_SHARE * mean)
    .sort((a, b) => a.episodes - b.episodes || a.tie - b.tie);
  const seatedByFloor = new Set<number>();
  for (const { i } of owed) {
    if (chosen.length >= tables || seatedByFloor.has(i)) continue;
    const table = fill([i], k, weights, rng);
    for (const j of table) seatedByFloor.add(j);
    chosen.push(table);
  }

  // The rest: a pair drawn by weight (its first member by its total weight), then filled.
  const totals = weights.map((row) => row.reduce((s, w) => s + w, 0));
  const sum = totals.reduce((s, w) => s + w, 0);
  while (chosen.length < tables) {
    let pick = rng.next() * sum;
    let first = n - 1;
    for (let i = 0; i < n; i += 1) {
      pick -= totals[i] ?? 0;
      if (pick < 0) {
        first = i;
        break;
      }
    }
    const table =
      k === 1 ? [first] : fill([first, drawPartner(first, weights, rng)], k, weights, rng);
    chosen.push(table);
  }

  return chosen.map((table) => {
    const seated = table.flatMap((i) => entrants[i] ?? []);
    return {
      playerIds: seated.map((p) => p.playerId),
      episodes: tableEpisodes(seated, episodesPerPairing, rng),
    };
  });
}
