// The shapes a round plan is made of, and how one table of entrants becomes its episodes.
import { shuffled, type Rng } from "./prng.ts";

/** A player's champion for this round. */
export interface Entrant {
  readonly playerId: string;
  readonly policyVersionId: string;
}

/** An entrant with its current standing (displayRating), for strategies that seat by strength. */
export interface RatedEntrant extends Entrant {
  readonly rating: number;
}

/**
 * One seat of an episode, in the game's seat order. A `duplicate` is a champion seated again
 * to fill a short table and a `filler` is a league filler policy: neither earns credit.
 */
export type Seat =
  | {
      readonly role: "champion" | "duplicate";
      readonly playerId: string;
      readonly policyVersionId: string;
    }
  | { readonly role: "filler"; readonly playerId: null; readonly policyVersionId: string };

export interface PlannedEpisode {
  readonly seats: readonly Seat[];
}

/** A group of players who play each other this round (served as `/v2/pools`). */
export interface PlannedPool {
  readonly playerIds: readonly string[];
  readonly episodes: readonly PlannedEpisode[];
}

export function championSeat(entrant: Entrant): Seat {
  return { role: "champion", playerId: entrant.playerId, policyVersionId: entrant.policyVersionId };
}

/**
 * `repetitions` episodes of the same table. Seat order is shuffled once, then rotated by one per
 * repetition, so with as many repetitions as seats every entrant sits in every seat once.
 */
export function tableEpisodes(
  table: readonly Entrant[],
  repetitions: number,
  rng: Rng,
): PlannedEpisode[] {
  const order = shuffled(table, rng).map(championSeat);
  const episodes: PlannedEpisode[] = [];
  for (let r = 0; r < repetitions; r += 1) {
    const shift = r % order.length;
    episodes.push({ seats: [...order.slice(shift), ...order.slice(0, shift)] });
  }
  return episodes;
}

/** Entrants sorted by player id: a plan depends on its seed, not on the order rows came in. */
export function byPlayerId<T extends Entrant>(entrants: readonly T[]): T[] {
  const sorted = [...entrants].sort((a, b) =>
    a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0,
  );
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]?.playerId === sorted[i - 1]?.playerId)
      throw new RangeError(`player ${sorted[i]?.playerId} has more than one champion`);
  }
  return sorted;
}

/** The i-th item of an endless repetition of `items`. */
export function cyclic<T>(items: readonly T[], i: number): T {
  const item = items[i % items.length];
  if (item === undefined) throw new RangeError("cannot cycle through an empty list");
  return item;
}
