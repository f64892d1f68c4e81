// The runner as a library (startRunner): it runs every job on its own runtime, and the process
// runtime — code unsandboxed, as the runner's user — only when told that all code is trusted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

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
