// The commissioner protocol of the hosted service (Metta-AI/coworld COMMISSIONER.md and
// commissioner/protocol.py) as zod schemas: every message has a `type`, and unknown fields are
// dropped as pydantic drops them. Identifiers are plain strings here (the document's own examples
// use "uuid_open"); the league driver sends UUIDs and maps them back, so a commissioner written
// against the upstream models reads what Gauntlet sends.
//
// Not carried (the persistent-player and recorded-episode leagues of the hosted service):
// `schedule_rounds_response.persistent_players` and `RoundSpec.recorded_episodes` parse, so an
// upstream commissioner's reply is not refused as malformed, but the driver refuses a round that
// asks for them and never starts a persistent runtime.
import { z } from "zod";

import { COMMISSIONER_STATE_MAX_BYTES, jsonBytes } from "./limits.ts";

const Id = z.string().min(1);
const FreeForm = z.record(z.string(), z.unknown());

export const CommissionerLeagueInfo = z.object({
  id: Id,
  commissioner_key: z.string().nullable().optional(),
  commissioner_config: FreeForm.nullable().optional(),
});

export const CommissionerDivisionInfo = z.object({
  id: Id,
  name: z.string(),
  level: z.number().int(),
  type: z.string().default("competition"),
});

export const CommissionerDivisionConfig = z.object({
  name: z.string().min(1),
  level: z.number().int(),
  type: z.string().default("competition"),
  description: z.string().nullable().optional(),
  previous_name: z.string().nullable().optional(),
});

export const CommissionerMembershipInfo = z.object({
  id: Id,
  league_id: Id,
  division_id: Id,
  policy_version_id: Id,
  player_id: z.string().nullable().optional(),
  player_name: z.string().nullable().optional(),
  preferences: FreeForm.default({}),
  status: z.string().default("competing"),
  substatus: z.string().nullable().optional(),
  is_champion: z.boolean().default(false),
});

export const CommissionerRecentResult = z.object({
  round_id: Id,
  division_id: Id,
  round_number: z.number().int(),
  policy_version_id: Id,
  rank: z.number().int(),
  score: z.number(),
  player_id: z.string().nullable().optional(),
  player_name: z.string().nullable().optional(),
  result_metadata: FreeForm.default({}),
  completed_at: z.string().nullable().optional(),
});

export const CommissionerVariantInfo = z.object({
  id: z.string(),
  name: z.string(),
  game_config: FreeForm,
  num_agents: z.number().int().positive().default(1),
});

export const CommissionerEpisodeRequest = z.object({
  request_id: z.string().min(1),
  variant_id: z.string(),
  policy_version_ids: z.array(Id),
  seed: z.number().int().nullable().optional(),
  tags: z.record(z.string(), z.string()).default({}),
  game_config_overrides: FreeForm.default({}),
});

export const CommissionerEpisodeScore = z.object({
  policy_version_id: Id,
  player_id: z.string().nullable().optional(),
  score: z.number(),
  scores: z.record(z.string(), z.number()).default({}),
});

export const CommissionerRankingEntry = z.object({
  policy_version_id: Id,
  player_id: z.string().nullable().optional(),
  rank: z.number().int(),
  score: z.number(),
  result_metadata: FreeForm.default({}),
});

export const CommissionerDivisionRanking = z.object({
  division_id: Id,
  rankings: z.array(CommissionerRankingEntry),
});

/** The legacy shape of a membership move; still accepted upstream for older commissioners. */
export const CommissionerMembershipChange = z.object({
  membership_id: Id,
  from_division_id: Id,
  to_division_id: Id.nullable().optional(),
  is_active: z.boolean().default(true),
  reason: z.string(),
});

export const CommissionerMembershipEvent = z.object({
  league_policy_membership_id: Id,
  from_division_id: Id.nullable().optional(),
  to_division_id: Id.nullable().optional(),
  status: z.string(),
  substatus: z.string().nullable().optional(),
  reason: z.string(),
  end_time: z.string().nullable().optional(),
  notes: z.string().nullable().optional(),
  evidence: z.array(z.looseObject({ type: z.string(), title: z.string() })).default([]),
});

export const CommissionerStageConfig = z.object({
  label: z.string().default("Round"),
  num_episodes: z.number().int().positive().default(1),
  min_episodes_per_entrant: z.number().int().positive().nullable().optional(),
  self_play: z.boolean().default(false),
});

export const CommissionerRoundConfig = z.object({
  stages: z.array(CommissionerStageConfig).nullable().optional(),
  entrant_policy_version_ids: z.array(Id).nullable().optional(),
});

export const CommissionerRoundInfo = z.object({
  id: Id,
  public_id: z.string().nullable().optional(),
  division_id: Id,
  round_number: z.number().int(),
  status: z.string(),
  round_config: FreeForm.default({}),
  created_at: z.string().nullable().optional(),
  started_at: z.string().nullable().optional(),
  completed_at: z.string().nullable().optional(),
});

export const CommissionerRoundSpec = z.object({
  division_id: Id,
  round_config: CommissionerRoundConfig,
  execution_backend: z.string().default("dispatch"),
  notes: z.string().nullable().optional(),
  idempotency_key: z.string().min(1).max(200).nullable().optional(),
  /** Out of scope in Gauntlet: a spec that carries any is refused by the driver. */
  recorded_episodes: z.array(FreeForm).default([]),
});

export const CommissionerEpisodeResultBody = z.object({
  request_id: z.string(),
  scores: z.array(CommissionerEpisodeScore),
  game_results: FreeForm.nullable().optional(),
});

/**
 * The JSON of a round's state as the platform keeps it, or why it is not kept: a state past
 * COMMISSIONER_STATE_MAX_BYTES is dropped (the round still counts, the next round_start gets the
 * last state kept), as COMMISSIONER.md specifies.
 */
export function stateToKeep(
  state: unknown,
): { json: string | null; dropped: null } | { json: null; dropped: string } {
  if (state === undefined || state === null) return { json: null, dropped: null };
  const bytes = jsonBytes(state);
  if (bytes > COMMISSIONER_STATE_MAX_BYTES)
    return {
      json: null,
      dropped: `the round's state (${bytes} bytes of JSON) is past the limit of ${COMMISSIONER_STATE_MAX_BYTES} bytes and was not kept; the next round starts from the last state kept`,
    };
  return { json: JSON.stringify(state), dropped: null };
}

// Platform → commissioner.

export const ScheduleRoundsRequest = z.object({
  type: z.literal("schedule_rounds_request"),
  league: CommissionerLeagueInfo,
  divisions: z.array(CommissionerDivisionInfo),
  active_memberships: z.array(CommissionerMembershipInfo),
  recent_rounds: z.array(CommissionerRoundInfo),
});

export const LeagueMigrationConfigRequest = z.object({
  type: z.literal("league_migration_config_request"),
  league: CommissionerLeagueInfo,
  divisions: z.array(CommissionerDivisionInfo),
});

export const LeagueMigrationRequest = z.object({
  type: z.literal("league_migration_request"),
  league: CommissionerLeagueInfo,
  divisions: z.array(CommissionerDivisionInfo),
  memberships: z.array(CommissionerMembershipInfo),
});

export const RoundStart = z.object({
  type: z.literal("round_start"),
  round_id: Id,
  round_number: z.number().int(),
  league: CommissionerLeagueInfo,
  divisions: z.array(CommissionerDivisionInfo),
  memberships: z.array(CommissionerMembershipInfo),
  recent_results: z.array(CommissionerRecentResult),
  variants: z.array(CommissionerVariantInfo),
  completed_episodes: z.array(CommissionerEpisodeResultBody).default([]),
  state: z.unknown().optional(),
});

export const EpisodesAccepted = z.object({
  type: z.literal("episodes_accepted"),
  request_ids: z.array(z.string()),
});

export const EpisodesRejected = z.object({
  type: z.literal("episodes_rejected"),
  request_ids: z.array(z.string()),
  errors: z.record(z.string(), z.string()),
});

export const EpisodeResult = CommissionerEpisodeResultBody.extend({
  type: z.literal("episode_result"),
});

export const EpisodeFailed = z.object({
  type: z.literal("episode_failed"),
  request_id: z.string(),
  error: z.string(),
});

export const RoundAbort = z.object({ type: z.literal("round_abort"), reason: z.string() });

export const PlatformToCommissioner = z.discriminatedUnion("type", [
  ScheduleRoundsRequest,
  LeagueMigrationConfigRequest,
  LeagueMigrationRequest,
  RoundStart,
  EpisodesAccepted,
  EpisodesRejected,
  EpisodeResult,
  EpisodeFailed,
  RoundAbort,
]);

// Commissioner → platform.

export const ScheduleRoundsResponse = z.object({
  type: z.literal("schedule_rounds_response"),
  rounds: z.array(CommissionerRoundSpec).default([]),
  /** Out of scope in Gauntlet (persistent player runtimes): parsed, never reconciled. */
  persistent_players: z.array(FreeForm).default([]),
});

export const LeagueMigrationConfigResponse = z.object({
  type: z.literal("league_migration_config_response"),
  divisions: z
    .array(CommissionerDivisionConfig)
    .default([])
    .refine((d) => new Set(d.map((x) => x.name)).size === d.length, {
      message: "division names must be unique",
    }),
});

export const LeagueMigrationResponse = z.object({
  type: z.literal("league_migration_response"),
  policy_membership_events: z.array(CommissionerMembershipEvent).default([]),
});

export const ScheduleEpisodes = z.object({
  type: z.literal("schedule_episodes"),
  episodes: z.array(CommissionerEpisodeRequest),
});

export const RoundComplete = z.object({
  type: z.literal("round_complete"),
  results: z.array(CommissionerDivisionRanking).default([]),
  policy_membership_events: z.array(CommissionerMembershipEvent).default([]),
  membership_changes: z.array(CommissionerMembershipChange).default([]),
  round_display: FreeForm.nullable().optional(),
  // Any size: COMMISSIONER.md has a state past COMMISSIONER_STATE_MAX_BYTES dropped, not the
  // round (the platform keeps it only when within the limit, see stateToKeep).
  state: z.unknown().optional(),
  observability: FreeForm.nullable().optional(),
});

export const CommissionerToPlatform = z.discriminatedUnion("type", [
  ScheduleRoundsResponse,
  LeagueMigrationConfigResponse,
  LeagueMigrationResponse,
  ScheduleEpisodes,
  RoundComplete,
]);

export type ScheduleRoundsRequest = z.infer<typeof ScheduleRoundsRequest>;
export type LeagueMigrationConfigRequest = z.infer<typeof LeagueMigrationConfigRequest>;
export type LeagueMigrationRequest = z.infer<typeof LeagueMigrationRequest>;
export type RoundStart = z.infer<typeof RoundStart>;
export type EpisodesAccepted = z.infer<typeof EpisodesAccepted>;
export type EpisodesRejected = z.infer<typeof EpisodesRejected>;
export type EpisodeResult = z.infer<typeof EpisodeResult>;
export type EpisodeFailed = z.infer<typeof EpisodeFailed>;
export type RoundAbort = z.infer<typeof RoundAbort>;
export type PlatformToCommissioner = z.infer<typeof PlatformToCommissioner>;
export type ScheduleRoundsResponse = z.infer<typeof ScheduleRoundsResponse>;
export type LeagueMigrationConfigResponse = z.infer<typeof LeagueMigrationConfigResponse>;
export type LeagueMigrationResponse = z.infer<typeof LeagueMigrationResponse>;
export type ScheduleEpisodes = z.infer<typeof ScheduleEpisodes>;
export type RoundComplete = z.infer<typeof RoundComplete>;
export type CommissionerToPlatform = z.infer<typeof CommissionerToPlatform>;
export type CommissionerMembershipInfo = z.infer<typeof CommissionerMembershipInfo>;
export type CommissionerMembershipEvent = z.infer<typeof CommissionerMembershipEvent>;
export type CommissionerRoundSpec = z.infer<typeof CommissionerRoundSpec>;
export type CommissionerEpisodeRequest = z.infer<typeof CommissionerEpisodeRequest>;
export type CommissionerDivisionInfo = z.infer<typeof CommissionerDivisionInfo>;
export type CommissionerDivisionConfig = z.infer<typeof CommissionerDivisionConfig>;
export type CommissionerVariantInfo = z.infer<typeof CommissionerVariantInfo>;
export type CommissionerRecentResult = z.infer<typeof CommissionerRecentResult>;
export type CommissionerRoundInfo = z.infer<typeof CommissionerRoundInfo>;

/** The schema of each message type, for checking one whose `type` is known. */
export const commissionerMessageSchemas = {
  schedule_rounds_request: ScheduleRoundsRequest,
  league_migration_config_request: LeagueMigrationConfigRequest,
  league_migration_request: LeagueMigrationRequest,
  round_start: RoundStart,
  episodes_accepted: EpisodesAccepted,
  episodes_rejected: EpisodesRejected,
  episode_result: EpisodeResult,
  episode_failed: EpisodeFailed,
  round_abort: RoundAbort,
  schedule_rounds_response: ScheduleRoundsResponse,
  league_migration_config_response: LeagueMigrationConfigResponse,
  league_migration_response: LeagueMigrationResponse,
  schedule_episodes: ScheduleEpisodes,
  round_complete: RoundComplete,
} as const;

export type CommissionerMessageType = keyof typeof commissionerMessageSchemas;
