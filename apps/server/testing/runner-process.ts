// A real runner (apps/runner) as a child process of a test, leasing from a test server with a
// machine token of its own; its output is kept for failure messages.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { TestServer } from "./start-server.ts";

const RUNNER_MAIN = join(import.meta.dirname, "../../runner/src/main.ts");

export interface RunnerProcess {
  /** Its `--work-dir`, removed by stop(). */
  workDir: string;
  /** What the runner printed so far (stdout and stderr). */
  output(): string;
  /** The runner's process id (memory probes). */
  pid: number | undefined;
  /** Sends the runner process a signal (fault tests: SIGKILL, SIGSTOP, SIGCONT). */
  signal(signal: NodeJS.Signals): void;
  /** Ends the runner (SIGTERM, then SIGKILL after 5 s) and removes its work directory. */
  stop(): Promise<void>;
}

export async function startRunnerProcess(
  t: TestServer,
  runnerId: string,
  concurrency = 1,
  /** The runner's server addresses, tried in turn (failover tests); `t` alone by default. */
  servers: readonly string[] = [t.url],
  /** A network namespace to run in (nsenter --net), more environment (a CA to trust), and more
   * options (`--runtime docker`). */
  placement: { netns?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<RunnerProcess> {
  const workDir = mkdtempSync(join(tmpdir(), `gauntlet-${runnerId}-`));
  let output = "";
  // nsenter enters the network namespace alone: `ip netns exec` would also mount a /sys of its
  // own, without the cgroup tree the sandbox limits episodes with.
  const prefix = placement.netns
    ? [`--net=/run/netns/${placement.netns}`, "--", process.execPath]
    : [];
  const runner: ChildProcess = spawn(
    placement.netns ? "nsenter" : process.execPath,
    [
      ...prefix,
      RUNNER_MAIN,
      ...servers.flatMap((url) => ["--server", url]),
      "--runner-id",
      runnerId,
      "--work-dir",
      workDir,
      "--concurrency",
      String(concurrency),
      "--grace-seconds",
      "1",
      ...(placement.args ?? []),
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        ...placement.env,
        GAUNTLET_TOKEN: await t.machineToken(runnerId),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  runner.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  runner.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  return {
    workDir,
    output: () => output,
    pid: runner.pid,
    signal(signal) {
      runner.kill(signal);
    },
    async stop() {
      // A stopped runner would ignore SIGTERM until it is continued.
      if (runner.exitCode === null && runner.signalCode === null) runner.kill("SIGCONT");
      if (runner.exitCode === null && runner.signalCode === null) {
        const exited = new Promise((resolve) => runner.once("exit", resolve));
        runner.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (runner.exitCode === null) runner.kill("SIGKILL");
      }
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
