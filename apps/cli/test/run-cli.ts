// Runs `gauntlet` as a real child process (src/main.ts under the pinned Node), with its own
// config directory so a test never reads or writes the user's saved sign-in.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const MAIN = join(import.meta.dirname, "../src/main.ts");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string | Uint8Array;
  cwd?: string;
}

export function newConfigHome(): string {
  return mkdtempSync(join(tmpdir(), "gauntlet-cli-home-"));
}

/** Environment without anything of the developer's Gauntlet settings. */
export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.GAUNTLET_SERVER;
  delete env.GAUNTLET_TOKEN;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return runCommand(process.execPath, [MAIN, ...args], options);
}

export function runCommand(
  command: string,
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: cleanEnv(options.env ?? {}),
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** The --json output of a successful run. */
export function json(result: CliResult): unknown {
  if (result.code !== 0) throw new Error(`gauntlet exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}
