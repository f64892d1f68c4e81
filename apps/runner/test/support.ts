// Helpers for the end-to-end tests: runner processes with their output, coworld uploads over
// the API, and waiting for a state without fixed sleeps.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { Certification, Coworld } from "@gauntlet/core";
import { createClient, type FetchLike, type Gauntlet } from "@gauntlet/sdk";
import { packDirectory } from "@gauntlet/server/testing";

export const runnerMain = join(import.meta.dirname, "../src/main.ts");
/** How long a wait may take before it is reported as a hang: far beyond a loaded machine's slowness. */
export const PATIENCE_MS = 120_000;
export const gridrushDir = join(import.meta.dirname, "../../../examples/coworlds/gridrush");
export const secretEchoDir = join(import.meta.dirname, "fixtures/secret-echo");

export function manifestOf(dir: string): Record<string, unknown> & {
  game: Record<string, unknown>;
  player: Record<string, unknown>[];
  certification: Record<string, unknown>;
} {
  return JSON.parse(readFileSync(join(dir, "coworld_manifest.json"), "utf8")) as ReturnType<
    typeof manifestOf
  >;
}

export function apiClient(url: string, token: string, fetch?: FetchLike): Gauntlet {
  return createClient({
    baseUrl: url,
    token,
    useSavedCredentials: false,
    env: {},
    ...(fetch ? { fetch } : {}),
  });
}

/** Uploads a directory's files and a manifest (the directory's own unless given). */
export async function uploadCoworld(
  client: Gauntlet,
  dir: string,
  manifest: Record<string, unknown> = manifestOf(dir),
): Promise<Coworld> {
  const bundle = await client.coworlds.uploadBundle({ body: await packDirectory(dir) });
  return client.coworlds.upload({ body: { manifest, bundle_upload_id: bundle.upload_id } });
}

/** Polls a condition; the deadline only turns a hang into a message (the machine may be busy). */
export async function waitFor<T>(
  what: string | (() => string),
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = PATIENCE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Queues a certification and waits for its verdict. */
export async function certify(
  client: Gauntlet,
  coworldId: string,
  timeoutMs = PATIENCE_MS,
): Promise<Certification> {
  await client.coworlds.certify({ coworld_id: coworldId });
  return waitFor(
    `the certification of ${coworldId}`,
    async () => {
      const state = await client.coworlds.getCertification({ coworld_id: coworldId });
      return state.state === "certified" || state.state === "failed" ? state : null;
    },
    timeoutMs,
  );
}

export interface RunnerProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Waits for a line of output matching `pattern`, counting from the start. */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
}

const live = new Set<ChildProcess>();

export function spawnRunner(url: string, token: string, args: string[]): RunnerProcess {
  // debug: the tests follow each job through its lines (leased, healthy, each runnable's pid).
  const child = spawn(
    process.execPath,
    [runnerMain, "--server", url, "--log-level", "debug", ...args],
    {
      env: { PATH: process.env.PATH ?? "", GAUNTLET_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  live.add(child);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  return {
    child,
    output: () => output,
    line: (pattern, timeoutMs = PATIENCE_MS) =>
      waitFor(
        () => `${pattern} in the runner's output:\n${output}`,
        () => pattern.exec(output),
        timeoutMs,
      ),
    exited,
  };
}

/** Kills whatever runner a failed test left behind. */
export function killRunners(): void {
  for (const child of live) child.kill("SIGKILL");
}
