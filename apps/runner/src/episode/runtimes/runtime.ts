// The seam between the episode executor and where runnables run (docs/runtime.md, "Runtimes"):
// start a runnable, stop it, collect its log — plus where the game listens and how the others
// reach it. Everything else about an episode is shared.

import type { CpuUsage } from "./cpu-share.ts";
import type { LimitHit } from "./limits.ts";

export type RuntimeKind = "sandbox" | "process" | "docker";

export interface RunnableSpec {
  /** `game` or `player-<slot>`: names the runnable in events and container names. */
  name: string;
  run?: string[] | undefined;
  image?: string | undefined;
  /** Working directory on the process runtime (the coworld's or the policy's directory). */
  cwd: string;
  /** The complete environment the contract gives this runnable; nothing else is added but PATH. */
  env: Record<string, string>;
  /** Who this runnable is (a coworld version's game or bundled player, a policy version): a
   * runtime that keeps a compile cache keeps one per identity. Absent: no cache. */
  identity?: string | undefined;
  /** The game sees the episode's work directory; players do not. */
  mountsWorkDir: boolean;
  /** Host addresses this runnable alone may reach besides the game (its artifact upload, a
   * human seat's relay); a sandbox reaches each at 127.0.0.1 on the same port. */
  reach?: { host: string; port: number }[] | undefined;
  /** Only for a runtime that `holds`: its box is set up at once, its program starts when this
   * settles true; false ends it unstarted. Lets a player's sandbox be made while the game boots. */
  hold?: Promise<boolean> | undefined;
}

export interface ExitStatus {
  code: number | null;
  signal: string | null;
  /** Set when the runnable could not be started at all (e.g. its program does not exist). */
  error?: string;
  /** Set when a limit of the runtime ended it (the docker runtime's memory limit). */
  limit?: "out_of_memory";
}

export interface StartedRunnable {
  /** The process the runner started (the group leader; on docker, the `docker run` client). */
  readonly pid: number | null;
  /** Resolves once, when the runnable has exited; never rejects. */
  readonly exited: Promise<ExitStatus>;
  /** Ends the runnable and everything it started. Safe to call more than once. */
  stop(): Promise<void>;
  /** Its stdout and stderr so far, interleaved, capped. */
  log(): string;
  /** The CPU it used, once it has exited; null before, or where its group could not be made.
   * Absent where the runtime does not count (process, docker). */
  readonly cpuUsage?: () => CpuUsage | null;
  /** Settles when the runnable ran into a resource limit (where the runtime enforces them). */
  readonly limitHit?: Promise<LimitHit>;
  /** A player's: when (performance.now()) it last sent the game anything, null if never —
   * where the runner carries its connection to the game (the sandbox's pipe). */
  readonly lastHeard?: () => number | null;
  /** The game's: whether something listens on its port yet, or null where the runtime cannot
   * tell. Lets the health check skip requests that cannot succeed (the sandbox's cost a fork). */
  readonly listening?: () => Promise<boolean | null>;
}

export interface EpisodeLayout {
  /** COGAME_HOST and COGAME_PORT. */
  gameHost: string;
  gamePort: number;
  /** The work directory as runnables that mount it see it (file URIs point there). */
  workDirForGame: string;
  /** `ws://host:port` at which players reach the game. */
  playerBaseUrl: string;
  /** Where the runner's artifact receiver listens and the base of the addresses players get,
   * when not on the runner's loopback (the docker runtime's relay). */
  artifacts?: { socketPath: string; baseUrl: string };
}

export interface Runtime {
  readonly kind: RuntimeKind;
  /** Whether start() honours `hold` (RunnableSpec). */
  readonly holds?: boolean;
  /** Why a runnable cannot run here (no argv, no image), or null. */
  unusable(spec: Pick<RunnableSpec, "run" | "image">): string | null;
  layout(workDir: string): Promise<EpisodeLayout>;
  start(spec: RunnableSpec): Promise<StartedRunnable>;
  /** `http://host:port` at which the runner reaches the started game; throws while unknown. */
  gameUrl(game: StartedRunnable): Promise<string>;
  /** Releases what layout() made (networks). */
  dispose(): Promise<void>;
}

export interface RuntimeOptions {
  logCapBytes: number;
  /** How long a stopped runnable gets between SIGTERM and SIGKILL. */
  killGraceMs: number;
}
