// The process runtime: each runnable's `run` argv on this machine, in its own process group,
// with a clean environment. `node` as argv[0] means the runner's own Node.
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { CappedLog } from "../capped-log.ts";
import { holdPort } from "./ports.ts";
import type {
  EpisodeLayout,
  ExitStatus,
  Runtime,
  RuntimeOptions,
  StartedRunnable,
} from "./runtime.ts";

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  logCapBytes: number;
  killGraceMs: number;
  /** Bytes the child reads on file descriptors 3, 4, … (a pipe each, written once they are
   * there, then closed). */
  extraInput?: (Buffer | Promise<Buffer>)[];
}

/** Starts argv as the leader of a new process group, so that stop() can end its descendants too. */
export function spawnGroup(argv: string[], options: SpawnOptions): StartedRunnable {
  const log = new CappedLog(options.logCapBytes);
  const [program, ...args] = argv;
  let settled: ExitStatus | null = null;
  let resolveExit: (status: ExitStatus) => void = () => {};
  const exited = new Promise<ExitStatus>((resolve) => {
    resolveExit = (status) => {
      if (settled) return;
      settled = status;
      resolve(status);
    };
  });
  if (program === undefined) {
    resolveExit({ code: null, signal: null, error: "empty argv" });
    return { pid: null, exited, stop: async () => {}, log: () => log.text() };
  }
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", ...(options.extraInput ?? []).map(() => "pipe" as const)],
  });
  (options.extraInput ?? []).forEach((bytes, index) => {
    const pipe = child.stdio[3 + index];
    if (pipe === null || pipe === undefined || !("end" in pipe)) return;
    // A child that exits without reading closes the pipe: nothing to report here.
    pipe.on("error", () => undefined);
    void Promise.resolve(bytes).then((data) => pipe.end(data));
  });
  const streamsClosed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  child.stdout?.on("data", (chunk: Buffer) => log.append(chunk));
  child.stderr?.on("data", (chunk: Buffer) => log.append(chunk));
  child.on("error", (error) => resolveExit({ code: null, signal: null, error: error.message }));
  child.once("exit", (code, signal) => resolveExit({ code, signal }));
  const pid = child.pid ?? null;

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (pid === null) return;
      if (settled === null) {
        signalGroup(pid, "SIGTERM");
        await within(exited, options.killGraceMs);
      }
      // Whether or not the leader went quietly, nothing of its group may outlive the episode.
      signalGroup(pid, "SIGKILL");
      await within(exited, 2_000);
      // The last bytes of output arrive when every holder of the pipes is gone.
      await within(streamsClosed, 200);
    })();
    return stopping;
  };
  return { pid, exited, stop, log: () => log.text() };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the group is already gone.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `promise`, at most `ms`; the timer does not outlive the wait. */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      promise,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The runner's own environment that runnables keep: only what finds programs. */
export function baseEnv(): Record<string, string> {
  return process.env.PATH === undefined ? {} : { PATH: process.env.PATH };
}

/**
 * Node's compile cache, shared by the runnables this runner starts with its own Node: it halves
 * their start-up (TypeScript is stripped once, not per process). The process runtime runs
 * trusted code only, so a cache shared between runnables is acceptable there.
 */
export const nodeCompileCacheDir = join(
  tmpdir(),
  `gauntlet-node-compile-cache-${process.getuid?.() ?? "user"}`,
);

export function processRuntime(options: RuntimeOptions): Runtime {
  let port = 0;
  let release = () => {};
  return {
    kind: "process",
    unusable: (spec) => (spec.run === undefined ? "the process runtime needs a `run` argv" : null),
    async layout(workDir: string): Promise<EpisodeLayout> {
      const taken = await holdPort();
      port = taken.port;
      release = () => taken.release();
      return {
        gameHost: "127.0.0.1",
        gamePort: port,
        workDirForGame: workDir,
        playerBaseUrl: `ws://127.0.0.1:${port}`,
      };
    },
    async start(spec) {
      const [program, ...args] = spec.run ?? [];
      const ownNode = program === "node";
      const argv = ownNode ? [process.execPath, ...args] : (spec.run ?? []);
      const env = {
        ...baseEnv(),
        ...(ownNode ? { NODE_COMPILE_CACHE: nodeCompileCacheDir } : {}),
        ...spec.env,
      };
      return spawnGroup(argv, { cwd: spec.cwd, env, ...options });
    },
    gameUrl: async () => `http://127.0.0.1:${port}`,
    dispose: async () => release(),
  };
}
