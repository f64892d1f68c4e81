// swiss_neighbor: players sorted by standing sit with their neighbours. Tables are consecutive
// windows of k players; the windows start `roundNumber mod k` places down, so the boundaries
// move from round to round and every neighbour pair meets. A window cut short at the top or the
// bottom of the order borrows the nearest players, who then play one extra table that round.
import type { Rng } from "./prng.ts";
import { byPlayerId, tableEpisodes, type PlannedPool, type RatedEntrant } from "./seats.ts";

/** Best first; equal ratings in a seeded random order. */
export function standingOrder(players: readonly RatedEntrant[], rng: Rng): RatedEntrant[] {
  const keyed = byPlayerId(players).map((p) => ({ p, tie: rng.next() }));
  keyed.sort((a, b) => b.p.rating - a.p.rating || a.tie - b.tie);
  return keyed.map((x) => x.p);
}

/** Start indices of the windows of k among n (n ≥ k), boundaries shifted by `offset`. */
export function windowStarts(n: number, k: number, offset: number): number[] {
  const starts = new Set<number>();
  const o = ((offset % k) + k) % k;
  if (o > 0) starts.add(0);
  let s = o;
  for (; s + k <= n; s += k) starts.add(s);
  if (s < n) starts.add(n - k);
  return [...starts].sort((a, b) => a - b);
}

/** One pool per table. Needs n ≥ playersPerEpisode. */
export function swissNeighbor(
  players: readonly RatedEntrant[],
  playersPerEpisode: number,
  episodesPerPairing: number,
  rng: Rng,
  roundNumber: number,
): PlannedPool[] {
  if (playersPerEpisode < 1 || players.length < playersPerEpisode) {
    throw new RangeError(
      `swiss_neighbor needs at least ${playersPerEpisode} players, got ${players.length}`,
    );
  }
  const order = standingOrder(players, rng);
  return windowStarts(order.length, playersPerEpisode, roundNumber).map((start) => {
    const table = order.slice(start, start + playersPerEpisode);
    return {
      playerIds: table.map((p) => p.playerId),
      episodes: tableEpisodes(table, episodesPerPairing, rng),
    };
  });
}
