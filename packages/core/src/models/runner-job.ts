// The runner work queue (docs/api.md, "Runner work queue"): what a runner leases and reports.
import { z } from "zod";

import { Uuid } from "../ids.ts";
import { Timestamp } from "./common.ts";
import { RunnableEnv } from "./coworld-manifest.ts";
import { EpisodeCpu, EpisodeErrorType, EpisodeTimings } from "./episode-outcome.ts";

/** How a job's runnables are given: a `run` argv (`process`) or an `image` (`docker`). */
export const Runtime = z.enum(["process", "docker"]);

/**
 * Where a runner runs the code of what it leases (its `--runtime`): each runnable in a sandbox
 * of its own, in containers, or unsandboxed as the runner's user (a runner that trusts all code).
 */
export const Isolation = z.enum(["sandbox", "docker", "process"]).meta({
  id: "Isolation",
  description:
    "Where a runner runs an episode's code: `sandbox` (a bubblewrap sandbox per runnable), `docker` (a container per runnable) or `process` (unsandboxed, on a runner started with --trusted-code).",
});

export const LeaseRequest = z
  .strictObject({
    runner_id: z.string().trim().min(1).max(100),
    capacity: z.number().int().min(0).max(64),
    runtimes: z.array(Runtime).min(1),
    /** Recorded on each job it leases and shown on the episode; a runner that does not say is
     * shown as null. */
    isolation: Isolation.optional(),
    interactive_capacity: z.number().int().min(0).max(64).optional().meta({
      description:
        "Lanes: when given, `capacity` counts batch jobs only (no seat played by a person) and up to this many jobs with a person's seat are leased besides, so that a live game never takes a slot league rounds need. Absent: `capacity` counts every job.",
    }),
  })
  .meta({ id: "LeaseRequest" });

const Runnable = z.object({
  run: z.array(z.string()).nullable(),
  image: z.string().nullable(),
  env: RunnableEnv,
});

export const JobPlayer = z.object({
  position: z.number().int(),
  display_name: z.string(),
  runnable: Runnable,
  /**
   * A policy bundle to extract as the player's working directory; null for the coworld's own
   * player (`bundled_player_id`), which runs in the coworld's files, and for a version with an
   * image and no bundle, which runs on docker only.
   */
  bundle_sha256: z.string().nullable(),
  /** The coworld's own player (a `manifest.player[].id`) this seat runs, if it is one. */
  bundled_player_id: z.string().nullable().optional(),
  /** The policy version this seat runs, if it runs one (a runner keeps what it caches of a
   * runnable under its identity). */
  policy_version_id: z.string().nullable().optional(),
  /** Decrypted policy secret environment: for this player's process only. */
  secret_env: z.record(z.string(), z.string()),
  /**
   * A person plays this seat (a hosted play session): the runner runs no policy but relays the
   * seat's game socket to this WebSocket address on the server, where the person's browser is.
   */
  human_relay: z.object({ url: z.string() }).nullable().optional(),
});

export const LeasedJob = z
  .object({
    job_id: Uuid,
    lease_token: z.string().meta({
      description:
        "This lease's secret, shown once: send it as X-Lease-Token with every heartbeat, artifact, completion and failure of the job.",
    }),
    attempt: z.number().int(),
    lease_expires_at: Timestamp,
    episode_request_id: z.string(),
    coworld: z.object({
      id: z.string(),
      name: z.string(),
      version: z.string(),
      bundle_sha256: z.string().nullable(),
    }),
    manifest: z.record(z.string(), z.unknown()),
    game_config: z.record(z.string(), z.unknown()),
    players: z.array(JobPlayer),
    /** The coworld's secrets (decrypted): for the game process's environment only. */
    secrets: z.record(z.string(), z.string()),
    /**
     * A private episode input, resolved (its `secret://` values as `data:` URLs): merged onto
     * `game_config` for the game's config only, and redacted from every log like a secret.
     */
    game_config_overlay: z.record(z.string(), z.unknown()).optional(),
    /** Why the episode's private input could not be resolved (its secret was deleted): the
     * runner fails the episode with it instead of playing without the input. */
    game_config_overlay_error: z.string().optional(),
    deadline_ms: z.number().int(),
    /**
     * Player state (a stateful coworld's `state`): one entry per seat, in seat order. A seat with
     * `keep` has its game's new state uploaded as artifact `state-{slot}`; `content_base64` is
     * its start (null: a new state). Null for a seat that has no state in this episode.
     */
    player_state: z
      .array(z.object({ content_base64: z.string().nullable(), keep: z.boolean() }).nullable())
      .optional(),
  })
  .meta({ id: "LeasedJob" });

export const LeaseResponse = z
  .object({ jobs: z.array(LeasedJob), lease_seconds: z.number().int() })
  .meta({ id: "LeaseResponse" });

export const RunnerRef = z
  .strictObject({ runner_id: z.string().trim().min(1).max(100) })
  .meta({ id: "RunnerRef" });

export const HeartbeatResponse = z
  .object({
    lease_expires_at: Timestamp,
    cancel: z
      .boolean()
      .meta({ description: "Stop the episode: the job was cancelled or re-leased." }),
    people_waiting: z.number().int().min(0).optional().meta({
      description:
        "Seats played by a person whose person has not connected yet: the runner starts the game only at 0. Past the join timeout the server fails the job (`player_never_connected`) and answers `cancel`.",
    }),
  })
  .meta({ id: "HeartbeatResponse" });

export const CompleteJobRequest = z
  .strictObject({
    runner_id: z.string().trim().min(1).max(100),
    results: z.record(z.string(), z.unknown()),
    timings: EpisodeTimings.optional(),
    cpu: EpisodeCpu.optional(),
  })
  .meta({ id: "CompleteJobRequest" });

export const FailJobRequest = z
  .strictObject({
    runner_id: z.string().trim().min(1).max(100),
    error_type: z.union([EpisodeErrorType, z.literal("runner_error"), z.literal("returned")]),
    error: z.string().max(10_000),
    failed_policy_index: z.number().int().min(0).nullable().default(null),
    timings: EpisodeTimings.optional(),
    cpu: EpisodeCpu.optional(),
  })
  .meta({
    id: "FailJobRequest",
    description:
      "`returned` gives the job back unrun (a runner shutting down); `runner_error` and `infrastructure` are retried while the job has attempts left.",
  });

export const JobState = z
  .object({
    job_id: Uuid,
    status: z.enum(["queued", "leased", "completed", "failed", "cancelled"]),
    attempts: z.number().int(),
    episode_request_id: z.string(),
  })
  .meta({ id: "JobState" });

export const ArtifactUploaded = z
  .object({ type: z.string(), sha256: z.string(), size_bytes: z.number().int() })
  .meta({ id: "ArtifactUploaded" });

export type Isolation = z.infer<typeof Isolation>;
export type LeasedJob = z.infer<typeof LeasedJob>;
export type JobPlayer = z.infer<typeof JobPlayer>;
export type JobState = z.infer<typeof JobState>;
