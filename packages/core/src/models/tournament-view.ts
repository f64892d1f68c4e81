// cogames' `/tournament/*` surface (its SeasonServerClient and generated models), served as
// a view of league play: a season is a league, a pool a division, a match an episode request of
// a league round, a team a player, a stage a division. Identifiers it types as UUIDs are ours
// without their prefix (`league_<uuid>` → `<uuid>`). docs/api.md "cogames' tournament view".
import { z } from "zod";

import { Uuid } from "../ids.ts";
import { FreeForm, QueryBoolean, queryInt } from "./common.ts";

const Iso = z.string().meta({ description: "An ISO 8601 timestamp." });

export const SeasonPolicyRef = z
  .object({ id: Uuid, name: z.string().nullable(), version: z.number().int().nullable() })
  .meta({
    id: "SeasonPolicyRef",
    description: "A policy version: its id, policy name and number.",
  });

export const SeasonPool = z
  .object({
    id: Uuid.meta({ description: "The division's id without its prefix." }),
    name: z.string().meta({ description: "The division's name." }),
    description: z.string(),
    config_id: Uuid.meta({ description: "The division's rules, at /tournament/configs/{id}." }),
  })
  .meta({ id: "SeasonPool" });

export const Season = z
  .object({
    id: Uuid.meta({ description: "The league's id without its prefix." }),
    name: z.string().meta({ description: "The league's id: what the season paths take." }),
    display_name: z.string().meta({ description: "The league's name." }),
    version: z.number().int(),
    canonical: z.boolean(),
    summary: z.string(),
    game_description: z.string(),
    entry_pool: z.string().nullable(),
    leaderboard_pool: z.string().nullable(),
    is_default: z.boolean(),
    status: z.enum(["not_started", "in_progress", "complete"]),
    compat_version: z.string().nullable(),
    created_at: Iso,
    public: z.boolean(),
    tournament_type: z.enum(["freeplay", "team"]),
    auto_roll_hour_utc: z.number().int().nullable(),
    pools: z.array(SeasonPool),
  })
  .meta({ id: "Season", description: "A league, as cogames lists seasons." });

export const SeasonDetail = Season.extend({
  started_at: Iso.nullable(),
  entrant_count: z.number().int(),
  active_entrant_count: z.number().int(),
  match_count: z.number().int(),
  stage_count: z.number().int(),
}).meta({ id: "SeasonDetail" });

export const SeasonVersion = z
  .object({
    version: z.number().int(),
    canonical: z.boolean(),
    disabled_at: Iso.nullable(),
    created_at: Iso,
    compat_version: z.string().nullable(),
  })
  .meta({ id: "SeasonVersion", description: "A league has one version: itself." });

export const SeasonLeaderboardEntry = z
  .object({
    rank: z.number().int(),
    policy: SeasonPolicyRef,
    score: z.number(),
    matches: z.number().int(),
  })
  .meta({
    id: "SeasonLeaderboardEntry",
    description: "A standings row, by the player's champion policy version.",
  });

export const SeasonScorePoliciesEntry = z
  .object({
    rank: z.number().int(),
    policy: SeasonPolicyRef,
    placement_score: z.number(),
    team_appearances: z.number().int(),
    team_ranks: z.array(z.number().int()),
  })
  .meta({
    id: "SeasonScorePoliciesEntry",
    description: "A standings row: each player (team) is one placement of its champion.",
  });

export const SeasonTeam = z
  .object({
    id: Uuid.meta({ description: "The player's id without its prefix." }),
    pool_name: z.string(),
    eliminated: z.boolean(),
    score: z.number().nullable(),
    matches: z.number().int(),
    cogs: z.array(z.object({ position: z.number().int(), policy: SeasonPolicyRef })),
    created_at: Iso,
  })
  .meta({ id: "SeasonTeam", description: "A player in a division, with its champion." });

export const SeasonPoolLeaderboard = z
  .union([z.array(SeasonLeaderboardEntry), z.array(SeasonScorePoliciesEntry), z.array(SeasonTeam)])
  .meta({ id: "SeasonPoolLeaderboard" });

export const SeasonLeaderboardType = z.enum(["policy", "score-policies", "team"]);

export const SeasonMatchPlayer = z
  .object({
    policy: SeasonPolicyRef,
    num_agents: z.number().int(),
    score: z.number().nullable(),
  })
  .meta({ id: "SeasonMatchPlayer" });

export const SeasonMatch = z
  .object({
    id: Uuid.meta({ description: "The episode request's id without its prefix." }),
    season_name: z.string(),
    pool_name: z.string(),
    status: z.enum(["pending", "running", "completed", "failed"]),
    assignments: z
      .array(z.number().int())
      .meta({ description: "For each seat, its index in `players`." }),
    players: z.array(SeasonMatchPlayer),
    error: z.string().nullable(),
    error_type: z.string().nullable(),
    episode_id: Uuid.nullable(),
    job_id: Uuid.nullable(),
    created_at: Iso,
  })
  .meta({ id: "SeasonMatch", description: "An episode of a league round." });

export const SeasonPoolMembership = z
  .object({
    pool_name: z.string(),
    active: z.boolean(),
    completed: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
  })
  .meta({ id: "SeasonPoolMembership" });

export const SeasonPolicySummary = z
  .object({
    policy: SeasonPolicyRef,
    pools: z.array(SeasonPoolMembership),
    entered_at: Iso,
  })
  .meta({ id: "SeasonPolicySummary" });

export const SeasonMembershipEntry = z
  .object({
    season_name: z.string(),
    season_version: z.number().int(),
    pool_name: z.string(),
    action: z.enum(["added", "retired", "disqualified"]),
    notes: z.string().nullable(),
    created_at: Iso,
  })
  .meta({ id: "SeasonMembershipEntry" });

export const SeasonPoolConfig = z
  .object({ pool_name: z.string(), game_engine: z.string(), config: FreeForm })
  .meta({ id: "SeasonPoolConfig" });

export const SeasonStage = z
  .object({
    name: z.string(),
    policy_count: z.number().int(),
    match_count: z.number().int(),
    completion_pct: z.number(),
    team_count: z.number().int().nullable(),
    eliminated_count: z.number().int().nullable(),
  })
  .meta({ id: "SeasonStage", description: "A division's counts." });

export const SeasonProgress = z
  .object({
    phase: z.enum(["policy_eval", "complete"]),
    phase_detail: z.record(z.string(), z.union([z.string(), z.number()])),
    stages: z.array(SeasonStage),
    stage_flow: z.array(
      z.object({
        index: z.number().int(),
        name: z.string(),
        kind: z.literal("policy_eval"),
        description: z.string(),
        input_pool: z.string(),
        output_pool: z.string(),
        status: z.enum(["complete", "active", "pending"]),
      }),
    ),
    started: z.boolean(),
  })
  .meta({ id: "SeasonProgress" });

export const SeasonSubmitted = z
  .object({ pools: z.array(z.string()) })
  .meta({ id: "SeasonSubmitted", description: "The division the version was placed in." });

export const SeasonSubmitRequest = z
  .strictObject({ policy_version_id: Uuid })
  .meta({ id: "SeasonSubmitRequest" });

/** A list of policy version ids, repeated keys (`?ids=a&ids=b`) or one comma-separated value. */
const UuidList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).filter(Boolean))
  .pipe(z.array(Uuid).max(100));

export const SeasonMatchesQuery = z.object({
  policy_version_ids: UuidList.optional(),
  limit: queryInt(1, 500).default(50),
});

export const SeasonTeamsQuery = z.object({
  limit: queryInt(1, 500).default(100),
  offset: queryInt(0, 1_000_000).default(0),
  pool_name: z.string().max(200).optional(),
  eliminated: QueryBoolean.optional(),
  policy_version_id: Uuid.optional(),
});

export const SeasonPoliciesQuery = z.object({ mine: QueryBoolean.optional() });

export type SeasonPolicyRef = z.infer<typeof SeasonPolicyRef>;
export type Season = z.infer<typeof Season>;
export type SeasonDetail = z.infer<typeof SeasonDetail>;
export type SeasonMatch = z.infer<typeof SeasonMatch>;
export type SeasonTeam = z.infer<typeof SeasonTeam>;
export type SeasonLeaderboardEntry = z.infer<typeof SeasonLeaderboardEntry>;
export type SeasonStage = z.infer<typeof SeasonStage>;
export type SeasonPolicySummary = z.infer<typeof SeasonPolicySummary>;
