// The executor's input and outcome. The API shapes (results, error info, timings) are core's.
import type {
  CoworldManifest,
  EpisodeCpu,
  EpisodeErrorInfo,
  EpisodeResults,
  EpisodeTimings,
} from "@gauntlet/core";

import type { ContainerLimits } from "./runtimes/docker.ts";
import type { SandboxLimits } from "./runtimes/limits.ts";
import type { RuntimeKind } from "./runtimes/runtime.ts";

export interface EpisodePlayer {
  /** A bundled player's runnable, or a policy's (null and absent mean the same: not given). */
  runnable: {
    run?: string[] | null | undefined;
    image?: string | null | undefined;
    env?: Record<string, string> | null | undefined;
  };
  /** Working directory on the process runtime: the coworld's directory for bundled players, the policy's otherwise. */
  cwd: string;
  /** Who plays (a coworld's bundled player, a policy version): its compile cache's name. */
  identity?: string | undefined;
  /** Extra environment for this player only, e.g. a policy's secret env. */
  env?: Record<string, string> | undefined;
  /**
   * The runner's own program (a human seat's relay), not a competitor's: it runs on the process
   * runtime whatever the episode's runtime, reaching the game where the runner does. It holds
   * only its seat's relay address; the runner's token never reaches it (a clean environment).
   */
  runnersOwn?: boolean | undefined;
  /** Goes into the config's `players[slot].name` when the config schema declares it. */
  displayName?: string | undefined;
  /** Extra query parameters on this seat's WebSocket address (certification `initial_params`). */
  query?: Record<string, string | number | boolean> | undefined;
}

export interface SeatState {
  start: Buffer | null;
  keep: boolean;
}

export interface RunEpisodeInput {
  /** The coworld's extracted files; the game runs with this as its working directory. */
  coworldDir: string;
  /** Who the game is (a coworld version's): its compile cache's name. Absent: no cache. */
  gameIdentity?: string | undefined;
  manifest: CoworldManifest;
  /** The variant's config with overrides, without `tokens` (the executor adds fresh ones). */
  gameConfig: Record<string, unknown>;
  /** One per slot, slot 0 first. */
  players: EpisodePlayer[];
  /** The coworld's secrets: environment of the game only. */
  secrets: Record<string, string>;
  /** Player state (stateful coworlds), one per slot: its start (null: new) and whether the
   * game's new state is taken back (player-state-files.ts). Null: the seat has none. */
  playerState?: (SeatState | null)[] | undefined;
  /** An existing directory for this episode's files; the caller removes it afterwards. */
  workDir: string;
  /** Budget for the whole episode, in milliseconds from the call. */
  deadlineMs: number;
  runtime: RuntimeKind;
  /** Resource limits of each sandboxed runnable (the sandbox runtime). Default DEFAULT_LIMITS. */
  limits?: SandboxLimits | undefined;
  /** The docker runtime's limits of each container (memory, processes, CPUs, scratch, user);
   * unset fields keep their defaults (DEFAULT_CONTAINER_LIMITS). */
  containerLimits?: Partial<ContainerLimits> | undefined;
  /** How long each player may run, from its start, in milliseconds (every runtime): one still
   * running then ends the episode as `policy_timeout`, blamed on its seat. Not applied to an
   * episode with a seat a person plays (it lasts as long as the person takes). 0 turns it off.
   * Default DEFAULT_SEAT_WALL_CLOCK_MS. */
  seatWallClockMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** How long the game may take to answer 200 on /healthz (within the deadline). Default 15 s. */
  healthTimeoutMs?: number | undefined;
  /** How long players may take to exit after the game has. Default 1 s. */
  playerGraceMs?: number | undefined;
  /** Between SIGTERM and SIGKILL when ending a runnable. Default 500 ms. */
  killGraceMs?: number | undefined;
  /** Cap of each log, in bytes. Default 1 MiB. */
  logCapBytes?: number | undefined;
  /** The size limit of a player's artifact (COWORLD_PLAYER_ARTIFACT_UPLOAD_URL); 0 offers no
   * upload address. Default 10 MiB. Offered on the process and sandbox runtimes. */
  artifactMaxBytes?: number | undefined;
  /** The executor's own log: what it started and what happened. Never carries env values. */
  onEvent?: ((event: EpisodeEvent) => void) | undefined;
}

interface Artifacts {
  replay: Buffer | null;
  gameLog: string;
  /** One per slot. */
  playerLogs: string[];
  /** One per slot: what the player uploaded to its artifact address, or null. */
  playerArtifacts: (Buffer | null)[];
  /** One per slot: the new state the game left for a seat whose state is kept, or null. */
  playerStates: (Buffer | null)[];
  timings: EpisodeTimings;
  /** CPU seconds of each runnable and the runner's load over the episode. */
  cpu: EpisodeCpu;
}

export type EpisodeOutcome =
  | ({ status: "completed"; results: EpisodeResults } & Artifacts)
  | ({ status: "failed" } & EpisodeErrorInfo & Artifacts);

export type EpisodeEvent =
  | { type: "started"; runnable: string; pid: number | null; argv: string[]; env_names: string[] }
  | { type: "healthy"; after_ms: number }
  | { type: "exited"; runnable: string; code: number | null; signal: string | null; error?: string }
  | { type: "stopped"; runnable: string; pid: number | null }
  | { type: "note"; message: string }
  | { type: "outcome"; status: "completed" | "failed"; error_type?: string; total_ms: number };

/** The input cannot make an episode (roster size, config, runnables): nothing was started. */
export class EpisodeInputError extends Error {
  override readonly name = "EpisodeInputError";
}
