// round_robin: every group of `playersPerEpisode` distinct players meets, `episodesPerPairing`
// times. Exhaustive, so its size is C(n, k)·e; see roundRobinEpisodeCount.
import { shuffled, type Rng } from "./prng.ts";
import { byPlayerId, tableEpisodes, type Entrant, type PlannedPool } from "./seats.ts";

export function roundRobinEpisodeCount(
  players: number,
  playersPerEpisode: number,
  episodesPerPairing: number,
): number {
  if (playersPerEpisode > players) return 0;
  let combinations = 1;
  const k = Math.min(playersPerEpisode, players - playersPerEpisode);
  for (let i = 1; i <= k; i += 1) combinations = (combinations * (players - k + i)) / i;
  return Math.round(combinations) * episodesPerPairing;
}

function* combinations(n: number, k: number): Generator<number[]> {
  const idx = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    yield [...idx];
    let i = k - 1;
    while (i >= 0 && idx[i] === n - k + i) i -= 1;
    if (i < 0) return;
    idx[i] = (idx[i] ?? 0) + 1;
    for (let j = i + 1; j < k; j += 1) idx[j] = (idx[j - 1] ?? 0) + 1;
  }
}

/** One pool holding everyone; its episodes in a seeded random order. Needs n ≥ playersPerEpisode. */
export function roundRobin(
  players: readonly Entrant[],
  playersPerEpisode: number,
  episodesPerPairing: number,
  rng: Rng,
): PlannedPool[] {
  const sorted = byPlayerId(players);
  if (playersPerEpisode < 1 || sorted.length < playersPerEpisode) {
    throw new RangeError(
      `round_robin needs at least ${playersPerEpisode} players, got ${sorted.length}`,
    );
  }
  const episodes = [];
  for (const combo of combinations(sorted.length, playersPerEpisode)) {
    const table = combo.flatMap((i) => sorted[i] ?? []);
    episodes.push(...tableEpisodes(table, episodesPerPairing, rng));
  }
  return [{ playerIds: sorted.map((p) => p.playerId), episodes: shuffled(episodes, rng) }];
}
