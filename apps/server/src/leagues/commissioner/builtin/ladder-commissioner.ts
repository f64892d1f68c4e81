// The built-in commissioner of every league that names no coworld commissioner: the ladder's
// round robin, swiss and adaptive seating, speaking the protocol of COMMISSIONER.md in this
// process. It answers `round_start` with `schedule_episodes` (one request per planned episode,
// tagged with its pool and seating) or, when no round can run, with a `round_complete` that
// schedules nothing and says why in its `round_display`. It reports no rankings: a built-in
// round is ranked by the league's rating rule over its episodes when they are final.
//
// Unlike a coworld's commissioner it is trusted code, so it is handed the division's entrants
// with their standings (what swiss and adaptive seat by) instead of rebuilding them from
// recent results.
import type { RoundStart } from "@gauntlet/core";

import {
  planRound,
  type RoundPlan,
  type RoundPlanInput,
  type SkipReason,
} from "../../rules/index.ts";
import type { CommissionerProgram } from "../memory-channel.ts";

/** The tag naming an episode's pool (its group of players, served as `/v2/pools`). */
export const POOL_TAG = "pool";
/** The tag naming the seating that placed an episode. */
export const SEATING_TAG = "seating";
/**
 * The seats (positions, comma-separated) a league filler policy fills, when any: a filler earns
 * no credit even when its version is also an entrant's, which the versions alone cannot say.
 */
export const FILLER_SEATS_TAG = "filler_seats";

export type LadderInput = Omit<RoundPlanInput, "seed" | "roundNumber"> & {
  /** The variant to play (the ladder's `variant_id`, else the coworld's first). */
  readonly variantId: string;
};

/** What a skipped round's round_complete carries in its round_display. */
export interface SkippedDisplay {
  skipped: { reason: SkipReason; message: string };
}

/** The ladder's plan for a round: what the commissioner answers a round_start from. */
export function ladderPlan(input: LadderInput, roundId: string, roundNumber: number): RoundPlan {
  return planRound({ ...input, seed: roundId, roundNumber });
}

export function ladderCommissioner(input: LadderInput): CommissionerProgram {
  return {
    onMessage(message, reply) {
      if (message.type === "round_abort") return;
      if (message.type !== "round_start") return;
      const start = message as unknown as RoundStart;
      const plan = ladderPlan(input, start.round_id, start.round_number);
      if (plan.kind === "skip") {
        const display: SkippedDisplay = { skipped: { reason: plan.reason, message: plan.message } };
        reply({ type: "round_complete", results: [], round_display: display });
        return;
      }
      reply({
        type: "schedule_episodes",
        episodes: plan.pools.flatMap((pool, p) =>
          pool.episodes.map((episode, i) => {
            const fillers = episode.seats.flatMap((s, at) => (s.role === "filler" ? [at] : []));
            return {
              request_id: `pool-${p}-episode-${i}`,
              variant_id: input.variantId,
              policy_version_ids: episode.seats.map((s) => s.policyVersionId),
              tags: {
                [POOL_TAG]: String(p),
                [SEATING_TAG]: plan.seating,
                ...(fillers.length > 0 ? { [FILLER_SEATS_TAG]: fillers.join(",") } : {}),
              },
              game_config_overrides: {},
            };
          }),
        ),
      });
    },
  };
}
