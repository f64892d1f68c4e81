// League play (docs/api.md, "League play in short"):
// submissions, policy memberships, rounds with their pools and results, the competition feed,
// seed (filler) policies and trigger-round. A League or Division embedded here is whole (a League
// carries its Game, a Division its League: docs/api.md, "Conventions"), as the hosted service's
// clients parse it.
import { z } from "zod";

import { DivisionId, idSchema, LeagueId, PlayerId, Uuid } from "../ids.ts";
import { FreeForm, QueryBoolean, queryInt, Timestamp } from "./common.ts";
import { RoundStatus } from "./leaderboard.ts";
import { Division, DivisionType, League } from "./league.ts";

export const SubmissionId = idSchema("submission");
export const MembershipId = idSchema("membership");
export const RoundId = idSchema("round");
export const PoolId = idSchema("pool");

export const PlayerRef = z.object({ id: PlayerId, name: z.string() }).meta({ id: "PlayerRef" });

export const PolicyVersionRef = z
  .object({
    id: Uuid,
    policy: z.object({ id: Uuid, name: z.string() }),
    version: z.number().int(),
    player_id: z.string().nullable(),
    policy_id: Uuid.meta({ description: "The same as `policy.id` (Gauntlet)." }),
    name: z.string().meta({ description: "The same as `policy.name` (Gauntlet)." }),
  })
  .meta({
    id: "PolicyVersionRef",
    description: "A policy version as league play embeds it: its policy, number and player.",
  });

// Submissions ---------------------------------------------------------------------------

export const AutoChampion = z.enum(["always", "never", "lineage"]).meta({
  id: "AutoChampion",
  description:
    "`always`: the new membership becomes the player's champion. `lineage`: only when the current champion is an earlier version of the same policy. `never`: it stays a challenger — unless the player has no champion at all in the league.",
});

export const SubmissionStatus = z
  .enum(["pending", "processing", "placed", "rejected"])
  .meta({ id: "SubmissionStatus" });

export const SubmissionPreferences = z
  .looseObject({
    division_id: DivisionId.optional().meta({
      description:
        "Seed the player into this division (commissioner only). Without it a new player enters the lowest competition division.",
    }),
  })
  .meta({ id: "SubmissionPreferences" });

export const CreateLeagueSubmissionRequest = z
  .strictObject({
    league_id: LeagueId,
    policy_version_id: Uuid,
    auto_champion: AutoChampion.default("always"),
    preferences: SubmissionPreferences.optional(),
    player_id: PlayerId.optional().meta({
      description:
        "The player who competes. Defaults to the acting player token's player, then to the policy version's player.",
    }),
  })
  .meta({ id: "CreateLeagueSubmissionRequest" });

export const LeagueSubmission = z
  .object({
    id: SubmissionId,
    status: SubmissionStatus,
    league_policy_membership_id: MembershipId.nullable(),
    notes: z.string().nullable(),
    league: League,
    policy_version: PolicyVersionRef,
    player: PlayerRef.nullable(),
    auto_champion: AutoChampion,
    preferences: FreeForm,
    submitted_by_user_id: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "LeagueSubmission" });

export const ListLeagueSubmissionsQuery = z.object({
  league_id: LeagueId.optional(),
  player_id: PlayerId.optional(),
  policy_version_id: Uuid.optional(),
  mine: QueryBoolean.optional(),
  limit: queryInt(1, 500).default(100),
});

// Memberships ---------------------------------------------------------------------------

export const MembershipStatus = z
  .enum(["qualifying", "competing", "disqualified", "retired"])
  .meta({ id: "MembershipStatus" });
export const MembershipSubstatus = z
  .enum(["active", "benched", "inactive", "score_gate"])
  .meta({ id: "MembershipSubstatus" });

export const LeaguePolicyMembership = z
  .object({
    id: MembershipId,
    status: MembershipStatus,
    substatus: MembershipSubstatus,
    is_champion: z.boolean(),
    start_time: Timestamp,
    end_time: Timestamp.nullable(),
    league: League,
    division: Division,
    policy_version: PolicyVersionRef,
    player: PlayerRef.nullable(),
    retired_reason: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "LeaguePolicyMembership" });

export const ListMembershipsQuery = z.object({
  league_id: LeagueId.optional(),
  division_id: DivisionId.optional(),
  policy_version_id: Uuid.optional(),
  player_id: PlayerId.optional(),
  active_only: QueryBoolean.optional(),
  champions_only: QueryBoolean.optional(),
  mine: QueryBoolean.optional(),
  limit: queryInt(1, 500).default(100),
});

export const RetireMembershipRequest = z
  .strictObject({ reason: z.string().trim().min(1).max(1000).optional() })
  .meta({ id: "RetireMembershipRequest" });

export const MembershipIdParams = z.object({ membership_id: MembershipId });

// Rounds, pools, results ----------------------------------------------------------------

export const RoundWaiting = z
  .object({
    reason: z.literal("waiting for a runner"),
    queued_episodes: z.number().int().min(1),
    running_episodes: z.number().int().min(0),
    queue_position: z.number().int().min(1).meta({
      description:
        "The place of the round's first waiting episode in the order the runners lease the batch lane: 1 + the batch jobs that go before it, by share of league play, hosted play, each requester's evaluations and certification (as an episode's `queue_position`).",
    }),
    estimated_start_at: Timestamp.nullable().default(null).meta({
      description:
        "When that first waiting episode is expected to start (as an episode's `estimated_start_at`). Null when no runner is taking the queue or before any episode has completed.",
    }),
  })
  .meta({ id: "RoundWaiting" });

export const RoundCommissioner = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("builtin"),
      key: z.string().meta({ description: "The server's own commissioner (`commissioner_key`)." }),
    }),
    z.object({
      kind: z.literal("coworld"),
      runnable_id: z
        .string()
        .meta({ description: "The coworld manifest's `commissioner[].id` that ran the round." }),
      coworld_id: z.string(),
      coworld_version: z.string().nullable(),
    }),
  ])
  .meta({ id: "RoundCommissioner", description: "Who made the round and decided its results." });

export const Round = z
  .object({
    id: RoundId,
    round_number: z.number().int().min(1),
    commissioner_key: z.string(),
    commissioner: RoundCommissioner,
    execution_backend: z.string(),
    round_config: FreeForm.meta({
      description: "The ladder settings, coworld and game config the round was planned with.",
    }),
    round_display: FreeForm.meta({
      description: "Seating, pools and episode counts, for display.",
    }),
    status: RoundStatus,
    error: z.string().nullable(),
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    division: Division,
    league_id: LeagueId,
    created_at: Timestamp,
    waiting: RoundWaiting.nullable().optional().meta({
      description:
        "Why a running round is not done: some of its episodes wait in the queue for a runner. Null when none waits (or the round is not running).",
    }),
  })
  .meta({ id: "Round" });

export const RoundResult = z
  .object({
    id: Uuid,
    rank: z.number().int().min(1),
    score: z.number(),
    result_metadata: FreeForm.meta({
      description: "episodes counted, and the player's standing before and after the round.",
    }),
    policy_version: PolicyVersionRef.nullable(),
    player: PlayerRef.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "RoundResult" });

export const RoundDetail = Round.extend({
  results: z.array(RoundResult),
  commissioner_log: z.string().nullable().optional().meta({
    description:
      "What the league's coworld commissioner printed, capped, when its round failed, or why the state its round_complete handed back was not kept (past 10 MiB). Shown to the league's commissioner and admins only.",
  }),
}).meta({
  id: "RoundDetail",
});

export const RoundPage = z
  .object({
    entries: z.array(Round),
    total_count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: "RoundPage" });

export const ListRoundsQuery = z.object({
  league_id: LeagueId.optional(),
  division_id: DivisionId.optional(),
  division_type: DivisionType.optional(),
  status: RoundStatus.optional(),
  limit: queryInt(1, 200).default(50),
  offset: queryInt(0, 1_000_000).default(0),
});

export const RoundIdParams = z.object({ round_id: RoundId });

export const PoolMember = z
  .object({
    player_id: PlayerId.nullable(),
    player_name: z.string().nullable(),
    policy_version_id: Uuid,
    role: z.enum(["champion", "filler"]),
  })
  .meta({ id: "PoolMember" });

export const Pool = z
  .object({
    id: PoolId,
    round_id: RoundId,
    division_id: DivisionId,
    position: z.number().int().min(0),
    members: z.array(PoolMember),
    episode_count: z.number().int(),
    created_at: Timestamp,
  })
  .meta({ id: "Pool", description: "A group of a round's players who play each other." });

export const ListPoolsQuery = z.object({ round_id: RoundId });
export const PoolIdParams = z.object({ pool_id: PoolId });

// Trigger-round and seed policies -------------------------------------------------------

export const TriggerRoundRequest = z
  .strictObject({
    division_id: DivisionId.optional().meta({
      description: "Only this division; every competition division of the league otherwise.",
    }),
  })
  .meta({ id: "TriggerRoundRequest" });

export const RoundSkip = z
  .object({ division_id: DivisionId, reason: z.string(), message: z.string() })
  .meta({
    id: "RoundSkip",
    description: "Why a division started no round (e.g. `round_running`, `below_min_players`).",
  });

export const TriggerRoundResponse = z
  .object({ rounds: z.array(Round), skipped: z.array(RoundSkip) })
  .meta({ id: "TriggerRoundResponse" });

export const SeedPolicies = z
  .object({ policy_version_ids: z.array(Uuid), policy_versions: z.array(PolicyVersionRef) })
  .meta({
    id: "SeedPolicies",
    description: "The league's filler policy versions (`League.filler_policy_version_ids`).",
  });

export const ReplaceSeedPoliciesRequest = z
  .strictObject({ policy_version_ids: z.array(Uuid).max(100) })
  .meta({ id: "ReplaceSeedPoliciesRequest" });

// The competition feed ------------------------------------------------------------------

export const CompetitionEventType = z
  .enum([
    "submission_placed",
    "submission_rejected",
    "champion_changed",
    "membership_retired",
    "round_started",
    "round_completed",
    "round_failed",
    "episode_completed",
    "episode_failed",
    "standings_changed",
    "division_quiet",
    "player_promoted",
    "player_relegated",
    "experience_request_created",
    "experience_request_completed",
    "experience_request_failed",
    "experience_request_cancelled",
    "tournament_started",
    "tournament_match_decided",
    "tournament_completed",
    "tournament_cancelled",
    "tournament_failed",
    "ratings_recomputed",
    "episode_voided",
  ])
  .meta({ id: "CompetitionEventType" });

export const EventAudience = z.enum(["public", "owner"]).meta({
  id: "EventAudience",
  description:
    "`public`: everyone who may see the league. `owner`: the user in `user_id`, the commissioner and admins.",
});

export const CompetitionEvent = z
  .object({
    id: Uuid,
    seq: z.number().int().min(1).meta({
      description: "The event's place in the one global event stream (the WebSocket's `seq`).",
    }),
    event_type: CompetitionEventType,
    audience: EventAudience,
    user_id: z.string().nullable(),
    player: PlayerRef.nullable(),
    policy_version: PolicyVersionRef.nullable(),
    league: League.nullable(),
    division: Division.nullable(),
    round_id: RoundId.nullable(),
    episode_request_id: z.string().nullable(),
    headline: z.string(),
    summary: z.string(),
    payload: FreeForm,
    created_at: Timestamp,
  })
  .meta({ id: "CompetitionEvent" });

/** A live event's `data` for a subscriber that asked for the compact form: the event without the
 * league and division it embeds (their ids instead). A watcher knows what it subscribed to, and
 * those two objects were most of every message (about 3 KB of 3.6–3.9). */
export const CompactCompetitionEvent = CompetitionEvent.omit({ league: true, division: true })
  .extend({ league_id: LeagueId.nullable(), division_id: DivisionId.nullable() })
  .meta({ id: "CompactCompetitionEvent" });

export const ListCompetitionEventsQuery = z.object({
  league_id: LeagueId.optional(),
  division_id: DivisionId.optional(),
  round_id: RoundId.optional(),
  event_type: CompetitionEventType.optional(),
  audience: EventAudience.optional(),
  player_id: PlayerId.optional(),
  policy_version_id: Uuid.optional(),
  limit: queryInt(1, 500).default(100),
});

export type PlayerRef = z.infer<typeof PlayerRef>;
export type PolicyVersionRef = z.infer<typeof PolicyVersionRef>;
export type AutoChampion = z.infer<typeof AutoChampion>;
export type LeagueSubmission = z.infer<typeof LeagueSubmission>;
export type LeaguePolicyMembership = z.infer<typeof LeaguePolicyMembership>;
export type Round = z.infer<typeof Round>;
export type RoundCommissioner = z.infer<typeof RoundCommissioner>;
export type RoundWaiting = z.infer<typeof RoundWaiting>;
export type RoundResult = z.infer<typeof RoundResult>;
export type RoundDetail = z.infer<typeof RoundDetail>;
export type RoundPage = z.infer<typeof RoundPage>;
export type TriggerRoundResponse = z.infer<typeof TriggerRoundResponse>;
export type SeedPolicies = z.infer<typeof SeedPolicies>;
export type Pool = z.infer<typeof Pool>;
export type CompetitionEventType = z.infer<typeof CompetitionEventType>;
export type EventAudience = z.infer<typeof EventAudience>;
export type CompetitionEvent = z.infer<typeof CompetitionEvent>;
export type CompactCompetitionEvent = z.infer<typeof CompactCompetitionEvent>;
export type RoundSkip = z.infer<typeof RoundSkip>;
