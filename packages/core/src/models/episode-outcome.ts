// What one episode produces (docs/runtime.md, "One episode"): the results a completed episode
// reports, or the error info of a failed one. The runner reports these and the server stores them.
import { z } from "zod";

export const EpisodeErrorType = z
  .enum([
    "player_failure",
    "results_invalid",
    "game_unhealthy",
    "game_crashed",
    "timeout",
    "cancelled",
    "out_of_memory",
    "resource_limit",
    "policy_timeout",
    "player_never_connected",
    "infrastructure",
  ])
  .meta({
    id: "EpisodeErrorType",
    description:
      "player_failure: the game declared a seat's player failed; results_invalid: the game's results (or declaration) broke the contract; game_unhealthy: /healthz never answered 200; game_crashed: the game exited non-zero without results; timeout: the job's deadline passed; cancelled: the job was cancelled; out_of_memory: a runnable (failed_policy_index names its seat; null for the game) used more than its sandbox's memory limit; resource_limit: a runnable ran into another limit of its sandbox (processes, CPU time, file size); policy_timeout: a player (failed_policy_index names its seat) was still running past its wall-clock limit, on a runner that left it its CPU; player_never_connected: a seat played by a person was never connected within the join timeout (failed_policy_index names it), so the game never started; infrastructure: the episode failed for a cause no seat and no game made (the game's port taken by another program, a lost runner, a seat's wall clock running out on a runner so busy that the others' CPU left the seat less than its cap): retried within the job's attempts, and when none is left it counts for nobody.",
  });

export const EpisodeErrorInfo = z
  .object({
    error_type: EpisodeErrorType,
    error: z.string(),
    failed_policy_index: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: "The slot whose player failed, when one is known." }),
  })
  .meta({ id: "EpisodeErrorInfo" });

/** The file a game writes to `COGAME_PLAYER_FAILURE_URI`. */
export const PlayerFailureDeclaration = z
  .looseObject({
    message: z.string(),
    failed_policy_index: z.int().min(0),
  })
  .meta({ id: "PlayerFailureDeclaration" });

/** Final results: they satisfy the coworld's `results_schema`, with one score per slot. */
export const EpisodeResults = z.looseObject({ scores: z.array(z.number()) }).meta({
  id: "EpisodeResults",
  description: "Game-defined fields, validated by the coworld's results_schema.",
});

const Millis = z.number().min(0);

export const EpisodeTimings = z
  .object({
    startMs: Millis.meta({
      description: "From the call to the game process being started (config, port).",
    }),
    healthyMs: Millis.meta({ description: "From the game's start to its first 200 on /healthz." }),
    gameMs: Millis.meta({ description: "From the players' start to the game's exit." }),
    totalMs: Millis.meta({ description: "The whole episode, cleanup included." }),
  })
  .meta({ id: "EpisodeTimings" });

const CpuSeconds = z.number().min(0).nullable();

export const RunnerLoad = z
  .object({
    cores: z.int().min(1).meta({ description: "CPUs of the runner's host." }),
    busy_fraction: z.number().min(0).max(1).meta({
      description: "How busy the host's CPUs were over the episode, all cores together (0 to 1).",
    }),
    load_average: z.number().min(0).meta({
      description: "The host's one-minute load average when the episode ended.",
    }),
    over_committed: z.boolean().meta({
      description:
        "The host had no idle CPU to speak of during the episode (busy at least 90%): its runnables wanted more CPU than it has.",
    }),
  })
  .meta({ id: "RunnerLoad" });

export const EpisodeCpu = z
  .object({
    seats: z.array(CpuSeconds).meta({
      description: "CPU seconds each seat's player used, slot 0 first; null where not measured.",
    }),
    game: CpuSeconds.meta({ description: "CPU seconds the game used; null where not measured." }),
    cpus_per_runnable: z.number().positive().nullable().meta({
      description:
        "The CPU cap of the game and of every seat (each also has an equal share); null where the runtime enforces none.",
    }),
    unmeasured: z.string().nullable().meta({
      description: "Why CPU seconds are null (the runtime, no cgroups on the runner), or null.",
    }),
    runner: RunnerLoad,
  })
  .meta({
    id: "EpisodeCpu",
    description:
      "What the episode's runnables used of the CPU and how loaded the runner was, as its runner measured it.",
  });

export type EpisodeErrorType = z.infer<typeof EpisodeErrorType>;
export type EpisodeErrorInfo = z.infer<typeof EpisodeErrorInfo>;
export type PlayerFailureDeclaration = z.infer<typeof PlayerFailureDeclaration>;
export type EpisodeResults = z.infer<typeof EpisodeResults>;
export type EpisodeTimings = z.infer<typeof EpisodeTimings>;
export type RunnerLoad = z.infer<typeof RunnerLoad>;
export type EpisodeCpu = z.infer<typeof EpisodeCpu>;
