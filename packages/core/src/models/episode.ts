// Episode requests: one episode of a coworld with its participants, status, scores and
// artifacts (docs/api.md, "Groups").
import { z } from "zod";

import { idSchema } from "../ids.ts";
import { Timestamp } from "./common.ts";
import { EpisodeCpu } from "./episode-outcome.ts";
import { Isolation } from "./runner-job.ts";

export const EpisodeRequestId = idSchema("episodeRequest");

export const EpisodeStatus = z.enum([
  "pending",
  "submitted",
  "running",
  "completed",
  "failed",
  "cancelled",
]);

export const EpisodeParticipant = z
  .object({
    position: z.number().int(),
    policy_version_id: z.string().nullable(),
    policy_id: z.string().nullable(),
    policy_name: z.string(),
    version: z.number().int().nullable(),
    player_id: z.string().nullable(),
    player_name: z.string().nullable(),
  })
  .meta({ id: "EpisodeParticipant" });

export const EpisodeRequest = z
  .object({
    id: EpisodeRequestId,
    requester_user_id: z.string(),
    round_id: z.string().nullable(),
    coworld_id: z.string(),
    game_config: z.record(z.string(), z.unknown()),
    seed: z.number().int(),
    max_steps: z.number().int().nullable(),
    status: EpisodeStatus,
    policy_version_ids: z.array(z.string().nullable()),
    participants: z.array(EpisodeParticipant),
    job_id: z.string().nullable(),
    episode_id: z.string().nullable(),
    replay_url: z.string().nullable(),
    live_url: z.string().nullable(),
    error_type: z.string().nullable(),
    error: z.string().nullable(),
    failed_policy_index: z.number().int().nullable(),
    failed_agent_index: z.number().int().nullable(),
    isolation: Isolation.nullable().meta({
      description:
        "Where the runner that leased this episode runs its code (`sandbox`, `docker`, or `process` for trusted code only); null until leased, or when the runner did not say.",
    }),
    cpu: EpisodeCpu.nullable().default(null).meta({
      description:
        "CPU seconds per seat and of the game, and the runner's load, from the episode's last run; null before it ended or when its runner did not measure.",
    }),
    scores: z.array(
      z.object({
        policy_version_id: z.string().nullable(),
        position: z.number().int(),
        score: z.number(),
      }),
    ),
    tags: z.record(z.string(), z.string()).default({}).meta({
      description:
        "The tags the league's commissioner gave the episode when it scheduled it: a coworld's own, or the built-in ladder's `pool` and `seating` (`{}` outside leagues).",
    }),
    game_config_overrides: z.record(z.string(), z.unknown()).default({}).meta({
      description:
        "The public values the commissioner merged onto the variant's config for this episode (already in `game_config`); `{}` otherwise.",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    artifacts_expired_at: Timestamp.nullable().default(null).meta({
      description:
        "When the server's retention policy removed the episode's stored files (replay, logs, artifacts; reading them is then 410 `artifacts_expired`); null while they are kept. Results and scores stay.",
    }),
    queue_position: z.number().int().min(1).nullable().default(null).meta({
      description:
        "While the episode waits on the work queue: its place in the order the runners lease the queue (1 is the next a free slot takes), by share of league play, hosted play, each requester's evaluations and certification, not by age alone. Null once leased, and in reads that do not compute it (the changes feed, tournaments).",
    }),
    estimated_start_at: Timestamp.nullable().default(null).meta({
      description:
        "While queued: when the episode is expected to start, from its queue position, the runner slots busy now and the mean length of recent episodes (and, for an evaluation, its requester's cap on running episodes). Null when no runner is taking the queue, before any episode has completed, for a live game, or when not queued.",
    }),
  })
  .meta({ id: "EpisodeRequest" });

/**
 * Where an episode came from, by the hosted service's names (`source` on the episode list):
 * `coworld_upload` is a coworld upload's certification (smoke) episode, `league` a league
 * round's, `experience_request` an experience request's (an evaluation), `manual` one asked
 * for directly, `hosted_game` a hosted game's and `bulk_upload` one ingested from a bulk upload.
 */
export const EpisodeSource = z.enum([
  "coworld_upload",
  "league",
  "experience_request",
  "manual",
  "hosted_game",
  "bulk_upload",
]);
export type EpisodeSource = z.infer<typeof EpisodeSource>;

export const EpisodeRequestPage = z
  .object({ entries: z.array(EpisodeRequest), next_cursor: z.string().nullable() })
  .meta({ id: "EpisodeRequestPage" });

export const ArtifactType = z.enum([
  "spec",
  "game-config",
  "logs",
  "error-info",
  "results",
  "replay",
]);

export type ArtifactType = z.infer<typeof ArtifactType>;

/** An artifact by our name or the hosted service's (`error_info`, `game_config`). */
export const JobArtifactType = z
  .enum([...ArtifactType.options, "error_info", "game_config"])
  .transform((v) => (v === "error_info" ? "error-info" : v === "game_config" ? "game-config" : v))
  .pipe(ArtifactType);

export const BundlePart = z.enum([
  "spec",
  "game-config",
  "results",
  "replay",
  "logs",
  "error-info",
  "policy-logs",
  "policy-artifacts",
  // The hosted service's names for the same parts (coworld's EPISODE_BUNDLE.md).
  "error_info",
  "game_logs",
  "player_logs",
  "player_artifact",
]);
export type BundlePart = z.infer<typeof BundlePart>;

/**
 * What a bundle holds when `include` is not given: every part once, by its hosted-service name
 * where it has one.
 */
export const DEFAULT_BUNDLE_PARTS: readonly BundlePart[] = [
  "spec",
  "game-config",
  "results",
  "replay",
  "error_info",
  "game_logs",
  "player_logs",
  "player_artifact",
];

export const EpisodeBundleQuery = z.object({
  // A comma-separated list, or the key repeated (`include=results&include=replay`): the SDK
  // sends the list it is given as repeated keys.
  include: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v, ctx) => {
      const text = Array.isArray(v) ? v.join(",") : v;
      if (text === undefined || text === "") return [...DEFAULT_BUNDLE_PARTS];
      const parts = text.split(",").map((p) => p.trim());
      const bad = parts.find((p) => !BundlePart.safeParse(p).success);
      if (bad !== undefined) {
        ctx.addIssue({
          code: "custom",
          message: `unknown part ${JSON.stringify(bad)}: use ${BundlePart.options.join(", ")}`,
        });
        return z.NEVER;
      }
      return parts.flatMap((p) => BundlePart.options.filter((o) => o === p));
    }),
});

export const EpisodeStats = z
  .object({
    /** The results' top-level finite numbers: clients parse this map as numbers only. */
    game_stats: z.record(z.string(), z.number()),
    /** Every field of the results as the game reported them (a draw's `winner_slot: null`,
     * strings, nested objects); null for a bulk-uploaded episode, whose fields are in `upload`. */
    results: z.record(z.string(), z.unknown()).nullable(),
    policy_stats: z.array(
      z.object({
        position: z.number().int(),
        policy_version_id: z.string().nullable(),
        policy_name: z.string(),
        policy_version: z.number().int().nullable(),
        num_agents: z.number().int(),
        avg_metrics: z.record(z.string(), z.number()),
        avg_reward: z.number().nullable(),
        agents: z.array(
          z.object({
            agent_id: z.number().int(),
            reward: z.number().nullable(),
            metrics: z.record(z.string(), z.number()),
          }),
        ),
        /** A bulk-uploaded episode's `episode_policy_metrics` for this seat (else empty). */
        policy_metrics: z.record(z.string(), z.number()),
      }),
    ),
    steps: z.number().int().nullable(),
    /** What a bulk-upload file said of the episode; null for episodes run here. */
    upload: z
      .object({
        source_episode_id: z.string(),
        primary_policy_version_id: z.string().nullable(),
        replay_url: z.string().nullable(),
        thumbnail_url: z.string().nullable(),
        attributes: z.record(z.string(), z.unknown()).nullable(),
        eval_task_id: z.string().nullable(),
        tags: z.record(z.string(), z.string()),
      })
      .nullable(),
  })
  .meta({ id: "EpisodeStats" });

export const PolicyArtifactEntry = z
  .object({
    position: z.number().int(),
    policy_version_id: z.string().nullable(),
    policy_name: z.string(),
    has_log: z.boolean(),
    has_artifact: z.boolean(),
  })
  .meta({ id: "PolicyArtifactEntry" });

export type EpisodeRequest = z.infer<typeof EpisodeRequest>;
export type EpisodeParticipant = z.infer<typeof EpisodeParticipant>;
export type PolicyArtifactEntry = z.infer<typeof PolicyArtifactEntry>;
