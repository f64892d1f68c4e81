// A division round's plan: who sits where in which episode, or why no round runs.
import type { LadderSettings } from "@gauntlet/core";

import { adaptive, adaptiveTableCount, allSettled, type CertainEntrant } from "./adaptive.ts";
import { createRng } from "./prng.ts";
import { roundRobin, roundRobinEpisodeCount } from "./round-robin.ts";
import { byPlayerId, type PlannedPool } from "./seats.ts";
import { swissNeighbor } from "./swiss-neighbor.ts";
import { fillerSeats, multipleSeats } from "./too-few-players.ts";

export type { Entrant, PlannedEpisode, PlannedPool, RatedEntrant, Seat } from "./seats.ts";
export { createRng, shuffled, type Rng } from "./prng.ts";
export {
  adaptive,
  adaptiveTableCount,
  allSettled,
  pairWeights,
  type CertainEntrant,
} from "./adaptive.ts";
export { roundRobin, roundRobinEpisodeCount } from "./round-robin.ts";
export { swissNeighbor } from "./swiss-neighbor.ts";
export { fillerSeats, multipleSeats } from "./too-few-players.ts";

export interface RoundPlanInput {
  /**
   * One champion per player, with the player's current standing (used by swiss_neighbor) and
   * what its standings row says about its certainty (used by adaptive).
   */
  readonly entrants: readonly CertainEntrant[];
  readonly settings: LadderSettings;
  /** Same seed, same plan; the round id is a good one. */
  readonly seed: string | number;
  readonly roundNumber: number;
  /** The league's filler policy versions (League.filler_policy_version_ids). */
  readonly fillerPolicyVersionIds?: readonly string[];
}

export type SkipReason =
  "below_min_players" | "too_few_players" | "no_filler_policies" | "too_many_episodes" | "settled";

export type RoundPlan =
  | {
      readonly kind: "run";
      readonly seating:
        "round_robin" | "swiss_neighbor" | "adaptive" | "multiple_seats" | "filler_policy";
      readonly pools: readonly PlannedPool[];
      readonly episodeCount: number;
    }
  | { readonly kind: "skip"; readonly reason: SkipReason; readonly message: string };

function skip(reason: SkipReason, message: string): RoundPlan {
  return { kind: "skip", reason, message };
}

function run(
  seating: Extract<RoundPlan, { kind: "run" }>["seating"],
  pools: PlannedPool[],
  cap: number,
): RoundPlan {
  const episodeCount = pools.reduce((sum, p) => sum + p.episodes.length, 0);
  if (episodeCount > cap)
    return skip(
      "too_many_episodes",
      `the plan has ${episodeCount} episodes, over max_episodes_per_round ${cap}`,
    );
  return { kind: "run", seating, pools, episodeCount };
}

export function planRound(input: RoundPlanInput): RoundPlan {
  const { settings } = input;
  const entrants = byPlayerId(input.entrants);
  const n = entrants.length;
  const k = settings.players_per_episode;
  const e = settings.episodes_per_pairing;
  const cap = settings.max_episodes_per_round;
  const rng = createRng(`${input.seed}`);

  if (n < settings.min_players || n === 0) {
    return skip(
      "below_min_players",
      `${n} champion(s) in the division; min_players is ${settings.min_players}`,
    );
  }
  if (n < k) {
    switch (settings.too_few_players) {
      case "do_not_run":
        return skip(
          "too_few_players",
          `${n} champion(s) for ${k} seats and too_few_players is do_not_run`,
        );
      case "multiple_seats":
        return run("multiple_seats", [multipleSeats(entrants, k, e, rng)], cap);
      case "filler_policy": {
        const fillers = input.fillerPolicyVersionIds ?? [];
        if (fillers.length === 0)
          return skip(
            "no_filler_policies",
            "too_few_players is filler_policy but the league has no filler policy versions",
          );
        return run("filler_policy", [fillerSeats(entrants, k, e, fillers, rng)], cap);
      }
    }
  }
  switch (settings.seating) {
    case "round_robin": {
      // Counted before building: C(n, k) grows too fast to build first and check after.
      const count = roundRobinEpisodeCount(n, k, e);
      if (count > cap)
        return skip(
          "too_many_episodes",
          `round_robin over ${n} players needs ${count} episodes, over max_episodes_per_round ${cap}`,
        );
      return run("round_robin", roundRobin(entrants, k, e, rng), cap);
    }
    case "swiss_neighbor":
      return run("swiss_neighbor", swissNeighbor(entrants, k, e, rng, input.roundNumber), cap);
    case "adaptive": {
      if (allSettled(entrants))
        return skip(
          "settled",
          `every one of the ${n} rows is settled; the next round waits for a new entrant or champion`,
        );
      // Fewer tables rather than a skip when the cap is lower than the usual size.
      const tables = Math.min(adaptiveTableCount(n, k), Math.max(1, Math.floor(cap / e)));
      // Elo's scale turns into log-strength at ln 10/400 per point; other scales have no fixed slope.
      const natsPerUnit = settings.ranking === "elo" ? Math.LN10 / 400 : null;
      return run("adaptive", adaptive(entrants, k, e, rng, tables, natsPerUnit), cap);
    }
  }
}
