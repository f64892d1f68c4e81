// The built-in commissioner of every league that names no coworld commissioner: the ladder's
// round robin, swiss and adaptive seating, speaking the protocol of COMMISSIONER.md in this
// process. Asked `schedule_rounds_request`, it answers with a RoundSpec for its division when a
// round is due (`round_interval_minutes` after the last one started, or at once when the league's
// owner triggers one). It answers `round_start` with `schedule_episodes` (one request per planned episode,
// tagged with its pool and seating) or, when no round can run, with a `round_complete` that
// schedules nothing and says why in its `round_display`. The round's end, its rankings and
// promotion, is the same commissioner resumed once the episodes are final (ladder-round-end.ts).
//
// Unlike a coworld's commissioner it is trusted code, so it is handed the division's entrants
// with their standings (what swiss and adaptive seat by) instead of rebuilding them from
// recent results.
import type { CommissionerRoundSpec, LadderSettings, RoundStart } from "@gauntlet/core";

import {
  planRound,
  type RoundPlan,
  type RoundPlanInput,
  type SkipReason,
} from "../../rules/index.ts";
import type { CommissionerProgram } from "../memory-channel.ts";
import { toWire } from "../wire-ids.ts";

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
  /** When the division may have its next round, as the scheduling phase reads it. */
  readonly pace?: LadderPace;
};

/** What the built-in's scheduling phase decides by (trusted facts, not rebuilt from the messages). */
export interface LadderPace {
  readonly divisionId: string;
  /** The number the division's next round takes. */
  readonly roundNumber: number;
  /** When the division's last round started; null before its first. */
  readonly lastStartedAt: string | null;
  readonly now: Date;
  /** The league's owner asked for a round now (trigger-round): due whatever the interval says. */
  readonly force: boolean;
}

/** When the next round is due: now (null), or the time `round_interval_minutes` sets. */
export function nextRoundDue(settings: LadderSettings, pace: LadderPace): Date | null {
  if (pace.force || settings.round_interval_minutes === null || pace.lastStartedAt === null)
    return null;
  const due = Date.parse(pace.lastStartedAt) + settings.round_interval_minutes * 60_000;
  return pace.now.getTime() < due ? new Date(due) : null;
}

/** The RoundSpec the built-in schedules for its division, when a round is due. */
export function ladderRoundSpecs(input: LadderInput): CommissionerRoundSpec[] {
  const pace = input.pace;
  if (!pace || nextRoundDue(input.settings, pace) !== null) return [];
  return [
    {
      division_id: toWire(pace.divisionId),
      round_config: { entrant_policy_version_ids: input.entrants.map((e) => e.policyVersionId) },
      execution_backend: "dispatch",
      idempotency_key: `${toWire(pace.divisionId)}:round-${pace.roundNumber}`,
      recorded_episodes: [],
    },
  ];
}

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
      if (message.type === "schedule_rounds_request") {
        reply({ type: "schedule_rounds_response", rounds: ladderRoundSpecs(input) });
        return;
      }
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
