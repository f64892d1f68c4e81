// Entrants for the seating tests: player ply-<i>, champion pv-<i>, rating 1500 + 10·(n − i).
import type { RatedEntrant } from "../src/leagues/rules/seating/seats.ts";

export function entrants(n: number): RatedEntrant[] {
  return Array.from({ length: n }, (_, i) => ({
    playerId: `ply-${i}`,
    policyVersionId: `pv-${i}`,
    rating: 1500 + 10 * (n - i),
  }));
}
