// adaptive: spends a round's episodes where the standings are least certain. Entrants are taken
// in the order of their form (the online rating); two neighbours there are unsure while their
// fitted intervals overlap, and more so where the fit puts them the other way round; toward the
// top of the table counts more. A pair is weighed by how much a game between the two settles
// unsure boundaries between them (neighbours and close games teach most); tables are drawn by
// that weight. A floor of exploration comes first: an entrant the record
// knows nothing about (new, or a new champion), or one with fewer than half the mean episodes,
// gets a table every round. When every row is settled the division spends nothing until
// something changes (planRound answers `settled`).
import { normalCdf } from "../confidence/normal.ts";
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
/**
 * The share of the pair weight spread evenly over every pair, whatever the standings say. A plan
 * that only follows the fit stops playing rows the fit has (perhaps wrongly) parted, so their
 * errors stay: `bench ranking` measured the intervals holding 85% of the true strengths without
 * it, 95% with it.
 */
const EXPLORE = 0.1;

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

/** 1 − |2Φ(z) − 1|: 1 when the two beliefs are a coin flip, toward 0 as they part. */
function overlap(x: Belief, y: Belief): number {
  const z = (x.mean - y.mean) / Math.sqrt(x.sd ** 2 + y.sd ** 2);
  return 1 - Math.abs(2 * normalCdf(z) - 1);
}

/**
 * Pair weights, the largest 1. Entrants are ordered by their form (`rating`, the online rating),
 * not by the fit that ranks the standings: the form lags the fit, and where the two disagree the
 * boundary's z-score turns negative, so the games between those rows — the ones that correct
 * either — get played. (`bench ranking`, issue 47: ordering by the fit's own ranks and judging
 * neighbours by `p_above_next` needed 1,058 mean episodes at 16 entrants over 200 seeds; this
 * order, 913, with coverage kept.) Between neighbours the doubt is the overlap of their two
 * intervals read as normal; between rows further apart, the neighbours' z-scores added up over
 * √(boundaries) (about right when the steps are alike). A pair's weight is that doubt,
 * 1 / (1 + 4z²), over the upper row's place (the top first), times how much a game teaches:
 * 4·p·(1 − p) of the win chance p between the two (`natsPerUnit` turns the rows' scale into
 * log-strength; without it the pair's own overlap stands in). Every pair of a cluster the fit
 * cannot order gets played alike, so a non-transitive trio is not sampled lopsidedly (which
 * would bias the fit).
 */
export function pairWeights(
  entrants: readonly CertainEntrant[],
  natsPerUnit: number | null = null,
): number[][] {
  const b = beliefs(entrants);
  const order = [...b.keys()].sort(
    (x, y) => (entrants[y]?.rating ?? 0) - (entrants[x]?.rating ?? 0),
  );
  const place = new Map(order.map((i, p) => [i, p]));
  // cumulative[p]: the summed z-scores of the boundaries above place p.
  const cumulative = [0];
  order.forEach((i, p) => {
    const x = b[i];
    const y = b[order[p + 1] ?? -1];
    if (!x || !y) return;
    const z = x.known && y.known ? (x.mean - y.mean) / Math.sqrt(x.sd ** 2 + y.sd ** 2) : 0;
    cumulative.push((cumulative[p] ?? 0) + z);
  });
  const closeness = (x: Belief, y: Belief): number => {
    if (natsPerUnit === null) return overlap(x, y);
    const win = 1 / (1 + Math.exp(-natsPerUnit * (x.mean - y.mean)));
    return 4 * win * (1 - win);
  };
  const raw = b.map((x, i) =>
    b.map((y, j) => {
      if (i === j) return 0;
      const [upper, lower] = [place.get(i) ?? 0, place.get(j) ?? 0].sort((m, n) => m - n);
      const z =
        ((cumulative[lower ?? 0] ?? 0) - (cumulative[upper ?? 0] ?? 0)) /
        Math.sqrt(Math.max(1, (lower ?? 0) - (upper ?? 0)));
      // Falls slower than the normal tail: a pair the fit calls settled still gets a game now
      // and then, which is what corrects an estimate that parted it by chance.
      const doubt = 1 / (1 + 4 * z ** 2);
      return (closeness(x, y) * doubt) / ((upper ?? 0) + 1);
    }),
  );
  const total = Math.max(
    1e-300,
    raw.flat().reduce((s, w) => s + w, 0),
  );
  const pairs = Math.max(1, b.length * (b.length - 1));
  const mixed = raw.map((row, i) =>
    row.map((w, j) => (i === j ? 0 : ((1 - EXPLORE) * w) / total + EXPLORE / pairs)),
  );
  const largest = Math.max(1e-300, ...mixed.flat());
  return mixed.map((row) => row.map((w) => w / largest));
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
  natsPerUnit: number | null = null,
): PlannedPool[] {
  const entrants = byPlayerId(players);
  const n = entrants.length;
  const k = playersPerEpisode;
  if (k < 1 || n < k) throw new RangeError(`adaptive needs at least ${k} players, got ${n}`);
  const weights = pairWeights(entrants, natsPerUnit);
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
