// How the built-in ladder commissioner ends a round: resumed once the round's episodes are final
// (a `round_start` whose `completed_episodes` are the round's results, as a recorded round's is),
// it answers `round_complete` with the division's rankings (each player's round score under the
// league's rules) and, when the promotion period comes round, the membership events that move
// the top of the division below up and the bottom of this one down.
//
// It is trusted code, so it is handed what the rating rule reads (each seat's faults, voids,
// fillers as anchors: `SettledEpisode`s) and the standings' inputs, instead of rebuilding them
// from the messages. It places the players for promotion on the standings as they stand once this
// round counts, with the same functions the platform stores the standings with, so the players
// it moves are the ones the published standings show at the boundary.
import type {
  CommissionerMembershipEvent,
  CommissionerMembershipInfo,
  LadderSettings,
  RoundComplete,
} from "@gauntlet/core";

import {
  applyRound,
  planMoves,
  roundResults,
  type PromotionMove,
  type RatingState,
  type SettledEpisode,
} from "../../rules/index.ts";
import { standingsFrom, type StandingInputs } from "../../standings-write.ts";
import type { CommissionerProgram } from "../memory-channel.ts";
import { toWire } from "../wire-ids.ts";

/** The boundary the promotion rule runs across after this round: this division and the one below. */
export interface PromotionFacts {
  /** Completed rounds of the division, this one included (the period is counted in them). */
  roundsCompleted: number;
  upper: { divisionId: string; inputs: StandingInputs };
  lower: { divisionId: string; inputs: StandingInputs };
}

export interface LadderEnding {
  settings: LadderSettings;
  divisionId: string;
  /** The round's episodes as the rating rule counts them. */
  episodes: readonly SettledEpisode[];
  /** The policy version each player of the round was seated with. */
  champions: ReadonlyMap<string, string>;
  /** The rated players' ratings before this round. */
  states: ReadonlyMap<string, RatingState>;
  /** Null unless the promotion period comes round with this round and a division is below. */
  promotion: PromotionFacts | null;
}

/** The reason a ladder move's membership event carries. */
export const MOVE_REASON = { promote: "promotion", relegate: "relegation" } as const;

/** The players the promotion rule moves after this round, on the standings once it counts. */
export function ladderMoves(ending: LadderEnding, rankedIds: ReadonlySet<string>): PromotionMove[] {
  const facts = ending.promotion;
  if (!facts) return [];
  const { settings } = ending;
  const after = applyRound(ending.states, ending.episodes, settings);
  // As recordRatedResults writes them: a ranked player's new rating and one more round played.
  const upperEntries = facts.upper.inputs.entries.map((entry) =>
    rankedIds.has(entry.playerId)
      ? {
          ...entry,
          state: after.get(entry.playerId) ?? entry.state,
          roundsPlayed: entry.roundsPlayed + 1,
        }
      : entry,
  );
  const order = (inputs: StandingInputs) =>
    standingsFrom(inputs, settings).rows.map((r) => r.player_id);
  return planMoves(
    [
      {
        divisionId: facts.upper.divisionId,
        level: 0,
        playerIds: order({ ...facts.upper.inputs, entries: upperEntries }),
      },
      { divisionId: facts.lower.divisionId, level: 1, playerIds: order(facts.lower.inputs) },
    ],
    settings.promotion,
  );
}

/** The round_complete the built-in answers with. */
export function ladderRoundComplete(
  ending: LadderEnding,
  memberships: readonly CommissionerMembershipInfo[],
): Omit<RoundComplete, "type"> {
  const results = roundResults(ending.episodes, ending.settings);
  const rankings = results.map((r) => {
    const version = ending.champions.get(r.subjectId);
    if (version === undefined) throw new Error(`no seat of ${r.subjectId} in the round's pools`);
    return {
      policy_version_id: version,
      player_id: r.subjectId,
      rank: r.rank,
      score: r.score,
      result_metadata: { episodes: r.episodes },
    };
  });
  const moves = ladderMoves(ending, new Set(results.map((r) => r.subjectId)));
  // Every live membership of a moving player moves with it (its rating row follows).
  const events: CommissionerMembershipEvent[] = moves.flatMap((move) =>
    memberships
      .filter((m) => m.player_id === move.playerId)
      .map((m) => ({
        league_policy_membership_id: m.id,
        from_division_id: m.division_id,
        to_division_id: toWire(move.toDivisionId),
        status: m.status,
        substatus: m.substatus ?? null,
        reason: MOVE_REASON[move.kind],
        notes: `after ${ending.promotion?.roundsCompleted ?? 0} completed round(s)`,
        evidence: [],
      })),
  );
  return {
    results: rankings.length > 0 ? [{ division_id: toWire(ending.divisionId), rankings }] : [],
    policy_membership_events: events,
    membership_changes: [],
  };
}

/** The built-in resumed at the round's end: it answers round_start with round_complete. */
export function ladderEndCommissioner(ending: LadderEnding): CommissionerProgram {
  return {
    onMessage(message, reply) {
      if (message.type !== "round_start") return;
      const memberships = (message.memberships ?? []) as CommissionerMembershipInfo[];
      reply({ type: "round_complete", ...ladderRoundComplete(ending, memberships) });
    },
  };
}
