// The runner as a library (startRunner): it runs every job on its own runtime, and the process
// runtime — code unsandboxed, as the runner's user — only when told that all code is trusted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import type { LeasedJob } from "@gauntlet/core";

import { RunnerRefusedError, startRunner } from "./lease-loop.ts";
import { createLog } from "./log.ts";
import type { Queue } from "./queue.ts";
import { Redactor } from "./redactor.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A queue that counts leases and has no job: what matters is whether the runner asks. */
function emptyQueue(): Queue & { leases: number } {
  const queue = {
    leases: 0,
    lease() {
      queue.leases++;
      return Promise.resolve({ jobs: [], leaseSeconds: 30 });
    },
    heartbeat: () => Promise.resolve({ cancel: false, peopleWaiting: 0 }),
    upload: () => Promise.resolve(),
    complete: () => Promise.resolve(),
    fail: () => Promise.resolve(),
    download: () => Promise.reject(new Error("no bundles here")),
  };
  return queue;
}

function options(queue: Queue, trustedCode?: boolean) {
  const workDir = mkdtempSync(join(tmpdir(), "gauntlet-lease-loop-"));
  dirs.push(workDir);
  const redactor = new Redactor();
  return {
    queue,
    workDir,
    concurrency: 1,
    runtime: "process" as const,
    log: createLog({ format: "text", redactor, write: () => {} }),
    redactor,
    idle: { minMs: 10, maxMs: 10 },
    ...(trustedCode === undefined ? {} : { trustedCode }),
  };
}

describe("a runner on the process runtime", () => {
  it("refuses to start unless told that all code is trusted, and leases nothing", async () => {
    for (const trusted of [undefined, false]) {
      const queue = emptyQueue();
      await expect(startRunner(options(queue, trusted))).rejects.toThrow(RunnerRefusedError);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(queue.leases).toBe(0);
    }
  });

  it("leases when started with trusted code", async () => {
    const queue = emptyQueue();
    const runner = await startRunner(options(queue, true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await runner.stop(0);
    expect(queue.leases).toBeGreaterThan(0);
  });
});

/** A queue of batch jobs whose bundles cannot be fetched: each ends at once, failed. */
function batchQueue(): Queue & { waiting: LeasedJob[]; leased: string[]; emptyLeases: number } {
  const queue = {
    waiting: [] as LeasedJob[],
    leased: [] as string[],
    emptyLeases: 0,
    lease(capacity: number) {
      const jobs = queue.waiting.splice(0, capacity);
      queue.leased.push(...jobs.map((j) => j.job_id));
      if (jobs.length === 0) queue.emptyLeases++;
      return Promise.resolve({ jobs, leaseSeconds: 30 });
    },
    heartbeat: () => Promise.resolve({ cancel: false, peopleWaiting: 0 }),
    upload: () => Promise.resolve(),
    complete: () => Promise.resolve(),
    fail: () => Promise.resolve(),
    download: () => Promise.reject(new Error("no bundles here")),
  };
  return queue;
}

function batchJob(n: number): LeasedJob {
  return {
    job_id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    lease_token: "lease",
    attempt: 1,
    lease_expires_at: new Date(Date.now() + 30_000).toISOString(),
    episode_request_id: `ereq_${n}`,
    coworld: { id: "cow", name: "game", version: "1.0.0", bundle_sha256: "a".repeat(64) },
    manifest: {},
    game_config: {},
    players: [],
    secrets: {},
    deadline_ms: 60_000,
  };
}

describe("a runner with a lane for live games", () => {
  it("takes the next round's episode at its shortest pause after a busy spell, though its live lane stayed empty", async () => {
    const queue = batchQueue();
    // A busy spell: every lease fills the batch lane; the live lane never gets a game.
    queue.waiting.push(...Array.from({ length: 20 }, (_, i) => batchJob(i)));
    const runner = await startRunner({
      ...options(queue, true),
      interactiveCapacity: 4,
      idle: { minMs: 10, maxMs: 600_000 },
    });
    try {
      await vi.waitFor(() => expect(queue.leased).toHaveLength(20), { timeout: 20_000 });
      // The spell is over and the runner has found the queue empty: the next round's episode
      // arrives. Waiting the longest pause would take ten minutes.
      await vi.waitFor(() => expect(runner.running()).toBe(0), { timeout: 20_000 });
      const empty = queue.emptyLeases;
      await vi.waitFor(() => expect(queue.emptyLeases).toBeGreaterThan(empty), {
        timeout: 20_000,
      });
      queue.waiting.push(batchJob(20));
      await vi.waitFor(() => expect(queue.leased).toHaveLength(21), { timeout: 20_000 });
    } finally {
      await runner.stop(0);
    }
  }, 90_000);
});
