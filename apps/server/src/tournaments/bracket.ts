// Tournament draws as pure functions: the single-elimination bracket (standard seeding, so the
// top seeds take the byes and meet as late as possible) and where a winner goes next, the
// round-robin schedule, and how a match is decided from its episodes' scores.
import type { TournamentMatchDecision } from "@gauntlet/core";

export interface DrawnMatch {
  round: number;
  position: number;
  seedA: number | null;
  seedB: number | null;
}

/** Seeds in bracket order for a bracket of `size` (a power of two): 1, size, …, 2, size − 1. */
export function seedOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const next = order.length * 2 + 1;
    order = order.flatMap((seed) => [seed, next - seed]);
  }
  return order;
}

export function bracketSize(entrants: number): number {
  let size = 1;
  while (size < entrants) size *= 2;
  return size;
}

/** Every match of the bracket: round 1 seeded (a missing seed is a bye), later rounds empty. */
export function drawSingleElimination(entrants: number): DrawnMatch[] {
  const size = bracketSize(entrants);
  const order = seedOrder(size).map((seed) => (seed <= entrants ? seed : null));
  const matches: DrawnMatch[] = [];
  for (let p = 0; p < size / 2; p++)
    matches.push({
      round: 1,
      position: p,
      seedA: order[2 * p] ?? null,
      seedB: order[2 * p + 1] ?? null,
    });
  for (let round = 2, count = size / 4; count >= 1; round++, count /= 2) {
    for (let p = 0; p < count; p++) matches.push({ round, position: p, seedA: null, seedB: null });
  }
  return matches;
}

/**
 * Every pair once, by the circle method: seed 1 stays, the others rotate, so each round seats
 * every entrant at most once. With an odd count one entrant sits out each round (no match).
 */
export function drawRoundRobin(entrants: number): DrawnMatch[] {
  let ring: (number | null)[] = Array.from({ length: entrants }, (_, i) => i + 1);
  if (entrants % 2 === 1) ring.push(null);
  const size = ring.length;
  const matches: DrawnMatch[] = [];
  for (let round = 1; round < size; round++) {
    let position = 0;
    for (let i = 0; i < size / 2; i++) {
      const a = ring[i] ?? null;
      const b = ring[size - 1 - i] ?? null;
      if (a === null || b === null) continue;
      matches.push({ round, position: position++, seedA: Math.min(a, b), seedB: Math.max(a, b) });
    }
    ring = [ring[0] ?? null, ring[size - 1] ?? null, ...ring.slice(1, size - 1)];
  }
  return matches;
}

/** Round robin's winner: the most matches won; equal wins go to the higher seed. */
export function roundRobinWinner(winnerSeeds: readonly number[]): number | null {
  const wins = new Map<number, number>();
  for (const seed of winnerSeeds) wins.set(seed, (wins.get(seed) ?? 0) + 1);
  const ranked = [...wins].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  return ranked[0]?.[0] ?? null;
}

/** The slot the winner of (round, position) fills next. */
export function nextSlot(
  round: number,
  position: number,
): { round: number; position: number; side: "a" | "b" } {
  return {
    round: round + 1,
    position: Math.floor(position / 2),
    side: position % 2 === 0 ? "a" : "b",
  };
}

export interface MatchOutcome {
  status: "completed" | "void";
  winnerSeed: number;
  decidedBy: TournamentMatchDecision;
  scoreA: number | null;
  scoreB: number | null;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The rule: the higher mean score over the match's completed episodes wins. A tie, and a void
 * match (no episode completed: every one failed or was cancelled), go to the higher seed (the
 * lower seed number), which is the entrant the standings or the commissioner ranked first.
 */
export function decideMatch(
  seedA: number,
  seedB: number,
  scoresA: readonly number[],
  scoresB: readonly number[],
): MatchOutcome {
  const higher = Math.min(seedA, seedB);
  if (scoresA.length === 0 || scoresB.length === 0)
    return {
      status: "void",
      winnerSeed: higher,
      decidedBy: "void_higher_seed",
      scoreA: null,
      scoreB: null,
    };
  const scoreA = mean(scoresA);
  const scoreB = mean(scoresB);
  if (scoreA === scoreB)
    return {
      status: "completed",
      winnerSeed: higher,
      decidedBy: "tie_higher_seed",
      scoreA,
      scoreB,
    };
  return {
    status: "completed",
    winnerSeed: scoreA > scoreB ? seedA : seedB,
    decidedBy: "score",
    scoreA,
    scoreB,
  };
}
