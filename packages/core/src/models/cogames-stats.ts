// The hosted service's cogames client's view of policies, episodes and assay runs: its policy
// upload (a zip PUT to a signed address), policy browsing, episodes with per-policy results, and
// assay runs (a policy evaluated on missions; here, experience requests). docs/api.md "cogames".
import { z } from "zod";

import { Uuid } from "../ids.ts";
import { queryInt, Timestamp } from "./common.ts";
import { RunnableEnv } from "./coworld-manifest.ts";

/** Largest cogames policy zip taken (checkpoints included). */
export const MAX_COGAMES_POLICY_ZIP_BYTES = 256 * 1024 * 1024;

export const PolicySubmitStarted = z
  .object({ upload_url: z.string(), s3_key: z.string(), upload_id: Uuid })
  .meta({ id: "PolicySubmitStarted" });

export const PolicySubmitFileParams = z.object({ upload_id: Uuid });
export const PolicySubmitFileQuery = z.object({
  expires: queryInt(0, Number.MAX_SAFE_INTEGER),
  signature: z.string().min(1).max(200),
});
export const PolicySubmitPut = z
  .object({ upload_id: Uuid, size_bytes: z.number().int() })
  .meta({ id: "PolicySubmitPut" });

export const PolicySubmitCompleteRequest = z
  .strictObject({
    upload_id: Uuid,
    name: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "letters, digits, . _ - (up to 100)"),
    policy_secret_env: RunnableEnv.optional(),
  })
  .meta({ id: "PolicySubmitCompleteRequest" });

export const PolicySubmitCompleted = z
  .object({
    id: Uuid,
    name: z.string(),
    version: z.number().int(),
    policy_bundle_id: Uuid,
    pools: z.array(z.string()).nullable(),
    submit_error: z.string().nullable(),
  })
  .meta({ id: "PolicySubmitCompleted" });

export const BrowsePoliciesQuery = z.object({
  name_exact: z.string().max(100).optional(),
  name_fuzzy: z.string().max(100).optional(),
  limit: queryInt(1, 500).default(100),
  offset: queryInt(0, 1_000_000).default(0),
});

export const PolicyRow = z
  .object({
    id: Uuid,
    user_id: z.string(),
    name: z.string(),
    created_at: Timestamp,
    attributes: z.record(z.string(), z.unknown()),
    version_count: z.number().int(),
    latest_version_id: Uuid.nullable(),
    latest_version: z.number().int().nullable(),
    latest_version_created_at: Timestamp.nullable(),
  })
  .meta({ id: "PolicyRow" });

export const PoliciesPage = z
  .object({ entries: z.array(PolicyRow), total_count: z.number().int() })
  .meta({ id: "PoliciesPage" });

export const CogamesEpisodesQuery = z.object({
  policy_version_id: Uuid.optional(),
  tags: z
    .string()
    .max(2000)
    .optional()
    .meta({ description: "Comma-separated `key:value` filters; an episode matches all." }),
  limit: queryInt(1, 200).default(50),
  offset: queryInt(0, 1_000_000).default(0),
});

export const CogamesEpisodeParams = z.object({ episode_id: Uuid });

const Numbers = z.record(z.string(), z.number());

export const CogamesEpisode = z
  .object({
    id: Uuid,
    replay_url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    tags: z.record(z.string(), z.string()),
    game_stats: Numbers,
    policy_results: z.array(
      z.object({
        position: z.number().int(),
        policy: z.object({ id: Uuid, name: z.string(), version: z.number().int() }),
        num_agents: z.number().int(),
        avg_reward: z.number(),
        avg_metrics: Numbers,
        agents: z.array(
          z.object({ agent_id: z.number().int(), reward: z.number(), metrics: Numbers }),
        ),
      }),
    ),
    steps: z.number().int().nullable(),
    created_at: Timestamp,
  })
  .meta({
    id: "CogamesEpisode",
    description:
      "A completed episode (an episode request's UUID); seats without a policy version are left out of `policy_results`.",
  });

export const EpisodeQueryRequest = z
  .strictObject({
    primary_policy_version_ids: z.array(Uuid).max(500).optional(),
    episode_ids: z.array(Uuid).max(500).optional(),
    tag_filters: z
      .record(z.string(), z.array(z.string()).nullable())
      .optional()
      .meta({ description: "Per tag key, the values taken (null: any value, the key present)." }),
    limit: z.number().int().min(1).max(1000).default(100),
    offset: z.number().int().min(0).max(1_000_000).default(0),
  })
  .meta({ id: "EpisodeQueryRequest" });

export const EpisodeWithTags = z
  .object({
    id: Uuid,
    replay_url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()).nullable(),
    eval_task_id: z.string().nullable(),
    created_at: Timestamp,
    tags: z.record(z.string(), z.string()),
    avg_rewards: Numbers.meta({ description: "Per policy version id, its agents' mean reward." }),
    job_id: Uuid.nullable(),
  })
  .meta({ id: "EpisodeWithTags" });

export const EpisodeQueryResult = z
  .object({ episodes: z.array(EpisodeWithTags) })
  .meta({ id: "EpisodeQueryResult" });

export const AssayMission = z.object({
  mission_name: z.string().trim().min(1).max(200),
  env_config: z.record(z.string(), z.unknown()),
  num_episodes: z.number().int().min(1).max(100).default(3),
  max_steps: z.number().int().min(1).max(1_000_000).default(10_000),
});

export const CreateAssayRunRequest = z
  .strictObject({
    policy_version_id: Uuid,
    missions: z.array(AssayMission).min(1).max(50),
    name: z.string().trim().min(1).max(200).optional(),
    compat_version: z.string().max(100).optional(),
  })
  .meta({ id: "CreateAssayRunRequest" });

export const AssayStatus = z.enum(["pending", "completed", "failed"]).meta({ id: "AssayStatus" });

export const AssayRun = z
  .object({
    id: Uuid,
    policy_version_id: Uuid,
    user_id: z.string(),
    name: z.string().nullable(),
    compat_version: z.string().nullable(),
    status: AssayStatus,
    total_jobs: z.number().int(),
    completed_jobs: z.number().int(),
    failed_jobs: z.number().int(),
    error: z.string().nullable(),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    experience_request_ids: z
      .array(z.string())
      .meta({ description: "The experience requests that play its missions, one per mission." }),
  })
  .meta({ id: "AssayRun" });

export const AssayRunParams = z.object({ run_id: Uuid });
export const ListAssayRunsQuery = z.object({ policy_version_id: Uuid.optional() });

export const MissionMetrics = z
  .object({
    reward_variance: z.number(),
    non_zero_episode_pct: z.number(),
    timeout_rate: z.number(),
    mean_move_success: z.number(),
    mean_action_failed: z.number(),
    mean_stuck_steps: z.number(),
  })
  .meta({ id: "MissionMetrics" });

export const AssayResults = z
  .object({
    status: AssayStatus,
    missions: z.record(z.string(), MissionMetrics),
    axes: z.array(
      z.object({
        axis: z.enum(["stability", "efficiency", "control"]),
        score: z.number(),
        derived_metrics: MissionMetrics,
      }),
    ),
  })
  .meta({ id: "AssayResults" });

export type PolicySubmitStarted = z.infer<typeof PolicySubmitStarted>;
export type PolicySubmitCompleted = z.infer<typeof PolicySubmitCompleted>;
export type PolicyRow = z.infer<typeof PolicyRow>;
export type CogamesEpisode = z.infer<typeof CogamesEpisode>;
export type EpisodeWithTags = z.infer<typeof EpisodeWithTags>;
export type AssayRun = z.infer<typeof AssayRun>;
export type AssayResults = z.infer<typeof AssayResults>;
export type MissionMetrics = z.infer<typeof MissionMetrics>;
export type PoliciesPage = z.infer<typeof PoliciesPage>;
export type EpisodeQueryResult = z.infer<typeof EpisodeQueryResult>;
