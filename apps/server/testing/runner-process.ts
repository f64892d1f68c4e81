// A runner as a separate process against a test server, as e2e tests play episodes: its output
// kept for failure messages, its work directory removed when it stops.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestServer } from "./start-server.ts";

const RUNNER_MAIN = join(import.meta.dirname, "../../runner/src/main.ts");

export interface RunnerProcess {
  /** Everything the runner printed so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after 5 s; removes the work directory. */
  stop(): Promise<void>;
}

export async function startRunnerProcess(t: TestServer, runnerId: string): Promise<RunnerProcess> {
  const workDir = mkdtempSync(join(tmpdir(), `gauntlet-${runnerId}-`));
  let output = "";
  const runner: ChildProcess = spawn(process.execPath, [RUNNER_MAIN, "--server", t.url, "--runner-id", runnerId, "--work-dir", workDir, "--concurrency", "2", "--grace-seconds", "1"], {
    env: { PATH: process.env.PATH ?? "", GAUNTLET_TOKEN: await t.machineToken(runnerId) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  runner.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  runner.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  return {
    output: () => output,
    async stop() {
      if (runner.exitCode === null) {
        const exited = new Promise((resolve) => runner.once("exit", resolve));
        runner.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (runner.exitCode === null) runner.kill("SIGKILL");
      }
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
