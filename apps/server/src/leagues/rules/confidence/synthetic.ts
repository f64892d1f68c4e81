// Episodes drawn from known strengths, for the tests and the ranking bench: each episode's
// finishing order is a Plackett–Luce draw (a Bradley–Terry game with two seats).
import type { SettledEpisode } from "../ratings/index.ts";
import type { Rng } from "../seating/prng.ts";

const at = new Date("2026-01-01T00:00:00Z");

/** One episode among `seated` (subject ids) with strengths in log units; scores n−1 … 0 by finish. */
export function drawEpisode(
  seated: readonly string[],
  strength: (id: string) => number,
  rng: Rng,
): SettledEpisode {
  const left = [...seated];
  const scores = new Map<string, number>();
  while (left.length > 0) {
    const weights = left.map((id) => Math.exp(strength(id)));
    let pick = rng.next() * weights.reduce((s, w) => s + w, 0);
    let chosen = left.length - 1;
    for (let i = 0; i < left.length; i += 1) {
      pick -= weights[i] ?? 0;
      if (pick < 0) {
        chosen = i;
        break;
      }
    }
    const [id] = left.splice(chosen, 1);
    if (id !== undefined) scores.set(id, left.length);
  }
  return {
    at,
    participants: seated.map((subjectId) => ({ subjectId, score: scores.get(subjectId) ?? 0 })),
  };
}

/** `count` episodes of random tables of `seats` drawn from `ids`. */
export function randomRecord(
  ids: readonly string[],
  strength: (id: string) => number,
  count: number,
  seats: number,
  rng: Rng,
): SettledEpisode[] {
  const out: SettledEpisode[] = [];
  for (let e = 0; e < count; e += 1) {
    const pool = [...ids];
    const table: string[] = [];
    for (let s = 0; s < seats; s += 1) {
      const [id] = pool.splice(rng.int(pool.length), 1);
      if (id !== undefined) table.push(id);
    }
    out.push(drawEpisode(table, strength, rng));
  }
  return out;
}
