// Fewer champions than seats: one table of everyone, the empty seats filled as the league says.
// Filled seats never earn credit (see Seat).
import { shuffled, type Rng } from "./prng.ts";
import {
  byPlayerId,
  championSeat,
  cyclic,
  type Entrant,
  type PlannedPool,
  type Seat,
} from "./seats.ts";

/** multiple_seats: champions fill the empty seats again, the extra seats spread over the players. */
export function multipleSeats(
  players: readonly Entrant[],
  playersPerEpisode: number,
  episodes: number,
  rng: Rng,
): PlannedPool {
  const order = shuffled(byPlayerId(players), rng);
  if (order.length === 0) throw new RangeError("multiple_seats needs at least one player");
  return fill(order, playersPerEpisode, episodes, rng, (i) => {
    const p = cyclic(order, i);
    return { role: "duplicate", playerId: p.playerId, policyVersionId: p.policyVersionId };
  });
}

/** filler_policy: the empty seats take the league's filler policy versions in turn. */
export function fillerSeats(
  players: readonly Entrant[],
  playersPerEpisode: number,
  episodes: number,
  fillerPolicyVersionIds: readonly string[],
  rng: Rng,
): PlannedPool {
  if (fillerPolicyVersionIds.length === 0)
    throw new RangeError("filler_policy needs at least one filler policy version");
  const fillers = shuffled(fillerPolicyVersionIds, rng);
  const order = shuffled(byPlayerId(players), rng);
  return fill(order, playersPerEpisode, episodes, rng, (i) => ({
    role: "filler",
    playerId: null,
    policyVersionId: cyclic(fillers, i),
  }));
}

function fill(
  order: readonly Entrant[],
  seats: number,
  episodes: number,
  rng: Rng,
  extra: (i: number) => Seat,
): PlannedPool {
  const missing = Math.max(0, seats - order.length);
  const planned = [];
  for (let r = 0; r < episodes; r += 1) {
    // Continue the cycle where the previous episode stopped, so extra seats rotate.
    const extras = Array.from({ length: missing }, (_, j) => extra(r * missing + j));
    planned.push({ seats: shuffled([...order.map(championSeat), ...extras], rng) });
  }
  return { playerIds: order.map((p) => p.playerId), episodes: planned };
}
