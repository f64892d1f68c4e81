// The embedded default's runner: `gauntlet-runner` as a child process of `gauntlet-server
// start`, so that the whole loop works on one machine while untrusted game code stays out of
// the server's process. Its output is passed on with a prefix; it is restarted (with backoff)
// if it dies, and ended — SIGTERM, then a wait — when the server stops. It has its own process
// group (a terminal's Ctrl-C reaches the server only, which then stops it) and an IPC channel,
// whose loss tells it that the server is gone.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/**
 * The runner's entry point. Not a package dependency: @gauntlet/runner depends on the SDK,
 * whose tests depend on the server, and a dependency back would make turbo's task graph cyclic.
 * GAUNTLET_RUNNER_MAIN overrides it (an installed runner elsewhere).
 */
export function runnerMain(env: Record<string, string | undefined> = process.env): string {
  return (
    env.GAUNTLET_RUNNER_MAIN ??
    fileURLToPath(new URL("../../../runner/src/main.ts", import.meta.url))
  );
}

export interface EmbeddedRunnerOptions {
  /** The server's address as the runner reaches it. */
  serverUrl: string;
  /** Called before each (re)start: the runner's machine token. */
  token: () => Promise<string>;
  workDir: string;
  /** How long running episodes may take to finish when the server stops. */
  graceSeconds?: number;
  /** The runner's `--log-level` (its own default, `info`, when absent). */
  logLevel?: "debug" | "info" | "warn" | "error";
  /** Batch episodes at once (`--capacity`); the runner's default (from the cores) when absent. Live games have a lane of their own. */
  capacity?: number;
  write?: (line: string) => void;
}

export interface EmbeddedRunner {
  readonly pid: () => number | null;
  stop(): Promise<void>;
}

const PREFIX = "[runner] ";

/**
 * The environment the runner keeps: enough to find programs, nothing of the server's secrets —
 * not its own token either, which it reads from a pipe (an environment shows in /proc/<pid>/environ).
 */
function runnerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "DOCKER_HOST"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export async function startEmbeddedRunner(options: EmbeddedRunnerOptions): Promise<EmbeddedRunner> {
  const main = runnerMain();
  if (!existsSync(main))
    throw new Error(
      `the runner is not at ${main}; set GAUNTLET_RUNNER_MAIN or start with --no-runner`,
    );
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const graceSeconds = options.graceSeconds ?? 10;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let stopping = false;
  // Read through a call: stop() sets the flag while a launch awaits, which narrowing cannot see.
  const stopped = () => stopping;
  let restartTimer: NodeJS.Timeout | undefined;
  let failures = 0;

  const launch = async () => {
    if (stopped()) return;
    let token: string;
    try {
      token = await options.token();
    } catch (error) {
      write(`${PREFIX}cannot start: ${(error as Error).message}\n`);
      scheduleRestart();
      return;
    }
    if (stopped()) return;
    const args = [
      main,
      "--server",
      options.serverUrl,
      "--runner-id",
      "embedded",
      "--work-dir",
      options.workDir,
      "--grace-seconds",
      String(graceSeconds),
      "--token-stdin",
      ...(options.logLevel ? ["--log-level", options.logLevel] : []),
      ...(options.capacity ? ["--capacity", String(options.capacity)] : []),
    ];
    const started = spawn(process.execPath, args, {
      env: runnerEnv(),
      stdio: ["pipe", "pipe", "pipe", "ipc"],
      detached: true,
    });
    // The token goes over a pipe that is closed at once: in no file, argument or environment.
    started.stdin?.on("error", () => undefined);
    started.stdin?.end(`${token}\n`);
    const startedAt = Date.now();
    child = started;
    for (const stream of [started.stdout, started.stderr]) {
      if (stream)
        createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) =>
          write(`${PREFIX}${line}\n`),
        );
    }
    exited = new Promise((resolve) => {
      started.once("exit", (code, signal) => {
        child = null;
        resolve();
        if (stopping) return;
        // A runner that ran a while before dying starts the backoff over.
        if (Date.now() - startedAt > 60_000) failures = 0;
        write(`${PREFIX}exited unexpectedly (${signal ?? `code ${code ?? "?"}`})\n`);
        scheduleRestart();
      });
    });
    started.once("error", (error) => write(`${PREFIX}could not start: ${error.message}\n`));
  };

  const scheduleRestart = () => {
    if (stopping) return;
    const waitMs = Math.min(30_000, 1_000 * 2 ** failures);
    failures += 1;
    write(`${PREFIX}restarting in ${Math.round(waitMs / 1000)} s\n`);
    restartTimer = setTimeout(() => void launch(), waitMs);
  };

  await launch();
  return {
    pid: () => child?.pid ?? null,
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const running = child;
      if (running === null) return;
      running.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>(
          (resolve) => (timer = setTimeout(() => resolve(true), (graceSeconds + 5) * 1000)),
        ),
      ]);
      clearTimeout(timer);
      if (gaveUp) {
        running.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/**
 * The embedded runner's work directory: outside the data directory (no runnable may ever find
 * the server's files next to its own), one per data directory, under the system's temp
 * directory; the runner makes it 0700.
 */
export function embeddedWorkDir(dataDir: string): string {
  const id = createHash("sha256").update(resolve(dataDir)).digest("hex").slice(0, 12);
  return join(tmpdir(), `gauntlet-runner-${process.getuid?.() ?? "user"}-${id}`);
}
