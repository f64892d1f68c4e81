// The runner: leases as many jobs as it has free slots, runs each (run-job.ts), and polls
// with a growing pause while the queue is empty. Stopping stops the leasing, lets running
// episodes finish within a grace period, then aborts the rest and gives their jobs back.
import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";

import { bestEffort, settled as settledWork } from "@gauntlet/core";
import { isAuthenticationError, isPermissionDeniedError } from "@gauntlet/sdk";

import type { CommissionerQueue } from "../commissioner/commissioner-queue.ts";
import { runCommissioner } from "../commissioner/run-commissioner.ts";
import { joinRunnerGroup } from "../episode/runtimes/cpu-share.ts";
import { cgroupsProblem, sweepCgroups } from "../episode/runtimes/limits.ts";
import { removeTree } from "../episode/runtimes/remove-tree.ts";
import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import { sweepTempRoots } from "../episode/temp-root.ts";
import { BundleCache } from "./bundle-cache.ts";
import { claimInstance, sweepDeadRunners } from "./instance-dir.ts";
import type { RunnerLog } from "./log.ts";
import type { Queue } from "./queue.ts";
import type { Redactor } from "./redactor.ts";
import { runJob, type EpisodeSettings, type JobEnd } from "./run-job.ts";

export interface RunnerOptions {
  queue: Queue;
  workDir: string;
  /** Batch episodes at once. */
  concurrency: number;
  /**
   * Live games (a seat a person plays) at once, in a lane of their own besides `concurrency`:
   * a game that lasts as long as its person never takes a slot league rounds need. Absent: one
   * lane, every job counts against `concurrency`.
   */
  interactiveCapacity?: number;
  /** Where every job it leases runs, whatever the job names: jobs never choose it. */
  runtime: RuntimeKind;
  /** Every coworld and policy it runs is trusted (`--trusted-code`): the only way to `process`. */
  trustedCode?: boolean;
  /** Size cap of the extracted-bundle cache. */
  bundleCacheBytes?: number;
  log: RunnerLog;
  redactor: Redactor;
  /** The pause between polls of an empty queue: from `min`, doubling up to `max`. */
  idle?: { minMs: number; maxMs: number };
  /** The pause after the server could not be reached. */
  errorPauseMs?: number;
  episode?: EpisodeSettings;
  /** Coworld commissioners to lease and run (absent: none). */
  commissioners?: CommissionerQueue;
  /**
   * Commissioner sessions at once, in a lane of their own besides the batch slots (default 2): a
   * session waits on its round's episodes, so in a batch slot it would hold the slot they need.
   */
  commissionerCapacity?: number;
  /** Told when each job leaves the runner (tests, the benchmark). */
  onJobEnd?: (jobId: string, end: JobEnd) => void;
}

export interface Runner {
  /** Stops leasing; running episodes get `graceMs` to finish, then are aborted and returned. Calling again with 0 aborts at once. */
  stop(graceMs: number): Promise<void>;
  /** Settles when the runner has stopped; rejects when the server refuses its token. */
  readonly done: Promise<void>;
  /** Jobs running now. */
  running(): number;
}

/** The runner's token is not a machine token the server accepts: polling on will not help. */
export class RunnerRefusedError extends Error {
  override readonly name = "RunnerRefusedError";
}

const DEFAULT_IDLE = { minMs: 200, maxMs: 2_000 };
const COMMISSIONER_LEASE_PAUSE_MS = 60_000;

export async function startRunner(options: RunnerOptions): Promise<Runner> {
  const { queue, log } = options;
  if (options.runtime === "process" && options.trustedCode !== true)
    throw new RunnerRefusedError(
      "the process runtime runs code unsandboxed: a runner takes it only when told that all code it runs is trusted",
    );
  // Only this runner's user may look inside: episodes' files, bundles, process records.
  await mkdir(options.workDir, { recursive: true, mode: 0o700 });
  await chmod(options.workDir, 0o700);
  const swept = await sweepDeadRunners(options.workDir);
  if (swept.runners > 0)
    log.info("cleaned up after runners that died", {
      runners: swept.runners,
      process_groups_ended: swept.groups,
    });
  for (const problem of swept.problems)
    log.warn(`cleaning up after a runner that died: ${problem}`);
  // Their temporary trees outside the work directory (a sandbox's binds, sockets, uploads).
  const tempRoots = await sweepTempRoots();
  if (tempRoots > 0)
    log.info("removed the temporary folders of runners that died", { folders: tempRoots });
  if (options.runtime === "sandbox") {
    await sweepCgroups();
    const missing = await cgroupsProblem();
    if (missing !== null) log.warn(missing);
    // Beside the sandboxes, which outweigh the rest of the host: not starved by them.
    else await joinRunnerGroup();
  }
  const instance = await claimInstance(options.workDir, options.runtime);
  const cache = new BundleCache(
    join(options.workDir, "bundles"),
    (sha) => queue.download(sha),
    options.bundleCacheBytes,
  );
  const idle = options.idle ?? DEFAULT_IDLE;
  const errorPauseMs = options.errorPauseMs ?? 2_000;

  const jobs = new Set<Promise<void>>();
  // The live games among `jobs`: they count against their own lane.
  const interactive = new Set<Promise<void>>();
  const abortJobs = new AbortController();
  const stopLeasing = new AbortController();
  // Read through a call: the flag changes while the loop awaits, which narrowing cannot see.
  const leasingStopped = () => stopLeasing.signal.aborted;
  let leaseSeconds = 30;
  let wake: () => void = () => {};

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        stopLeasing.signal.removeEventListener("abort", done);
        resolve();
      }
      wake = done;
      stopLeasing.signal.addEventListener("abort", done, { once: true });
    });

  const lanes = options.interactiveCapacity !== undefined;
  /** A live game (a seat a person plays) counts against its own lane, when there are lanes. */
  const isLive = (job: Parameters<typeof runJob>[1]) =>
    lanes && job.players.some((p) => p.human_relay);

  const launch = (job: Parameters<typeof runJob>[1]) => {
    const deps = {
      queue,
      cache,
      instance,
      log,
      redactor: options.redactor,
      runtime: options.runtime,
      leaseSeconds,
      episode: options.episode,
    };
    const running: Promise<void> = runJob(deps, job, abortJobs.signal)
      .then((end) => options.onJobEnd?.(job.job_id, end))
      .catch((error: unknown) =>
        log.error("job crashed the runner's handler", {
          job: job.job_id,
          error: (error as Error).message,
        }),
      )
      .finally(() => {
        jobs.delete(running);
        interactive.delete(running);
        wake();
      });
    jobs.add(running);
    if (isLive(job)) interactive.add(running);
  };
  /** Commissioner sessions running (their own lane). */
  const commissionerSessions = new Set<Promise<void>>();
  const commissionerCapacity = options.commissioners ? (options.commissionerCapacity ?? 2) : 0;
  /** A commissioner session, in the commissioner lane while it lives. */
  const launchCommissioner = (
    job: NonNullable<Awaited<ReturnType<CommissionerQueue["lease"]>>>,
  ) => {
    const commissioners = options.commissioners;
    if (!commissioners) return;
    const running: Promise<void> = (async () => {
      const jobDir = await instance.jobDir();
      try {
        await runCommissioner(
          {
            queue: commissioners,
            cache,
            jobDir,
            runtime: options.runtime,
            limits: options.episode?.limits,
            containerLimits: options.episode?.containerLimits,
            log,
            redactor: options.redactor,
          },
          job,
          abortJobs.signal,
        );
      } finally {
        await bestEffort(removeTree(jobDir));
      }
    })()
      .catch((error: unknown) =>
        log.error("commissioner job crashed the runner's handler", {
          commissioner_job: job.job_id,
          error: (error as Error).message,
        }),
      )
      .finally(() => {
        jobs.delete(running);
        commissionerSessions.delete(running);
        wake();
      });
    jobs.add(running);
    commissionerSessions.add(running);
  };
  /** After a failed commissioner lease (a server without them, say), none is asked for a while. */
  let commissionersPausedUntil = 0;
  /** One commissioner job, when the commissioner lane has room and one waits; whether one was leased. */
  const leaseCommissioner = async (): Promise<boolean> => {
    if (
      !options.commissioners ||
      commissionerSessions.size >= commissionerCapacity ||
      leasingStopped() ||
      Date.now() < commissionersPausedUntil
    )
      return false;
    try {
      const job = await options.commissioners.lease();
      if (job === null) return false;
      launchCommissioner(job);
      return true;
    } catch (error) {
      commissionersPausedUntil = Date.now() + COMMISSIONER_LEASE_PAUSE_MS;
      log.warn("could not lease a commissioner job; asking again in a minute", {
        error: (error as Error).message,
      });
      return false;
    }
  };
  const loop = async (): Promise<void> => {
    let idleMs = idle.minMs;
    let failures = 0;
    while (!stopLeasing.signal.aborted) {
      // A waiting commissioner session first: its lane is its own, so full batch slots do not
      // starve the league whose round waits on it.
      const leasedCommissioner = await leaseCommissioner();
      const free = Math.max(
        0,
        options.concurrency - (jobs.size - interactive.size - commissionerSessions.size),
      );
      const freeInteractive = lanes
        ? Math.max(0, (options.interactiveCapacity ?? 0) - interactive.size)
        : 0;
      if (free + freeInteractive <= 0) {
        // A finishing job wakes the loop; a commissioner lane with room looks again meanwhile.
        await pause(
          commissionerSessions.size < commissionerCapacity
            ? leasedCommissioner
              ? idle.minMs
              : idle.maxMs
            : 60_000,
        );
        continue;
      }
      let leased: Awaited<ReturnType<Queue["lease"]>>["jobs"];
      try {
        const res = await queue.lease(
          free,
          lanes ? { interactiveCapacity: freeInteractive } : undefined,
        );
        leased = res.jobs;
        leaseSeconds = res.leaseSeconds;
        if (failures > 0) log.info("the server answers again", { after_failures: failures });
        failures = 0;
      } catch (error) {
        if (isAuthenticationError(error) || isPermissionDeniedError(error)) {
          throw new RunnerRefusedError(
            `the server refused this runner's token (${(error as Error).message}); a runner needs a machine token`,
          );
        }
        failures += 1;
        // The first failure and then one in twenty: a server that is down should not flood the log.
        if (failures === 1 || failures % 20 === 0)
          log.warn("could not lease jobs", { error: (error as Error).message, failures });
        await pause(errorPauseMs);
        continue;
      }
      for (const job of leased) {
        if (leasingStopped()) {
          // Leased while stopping: give it back at once.
          await queue
            .fail(
              job,
              {
                error_type: "returned",
                error: "the runner is shutting down",
                failed_policy_index: null,
              },
              { timeout: 5_000, retries: 1 },
            )
            .catch((error: unknown) => {
              // Not returned, its lease expires and another runner takes the job: no loss.
              log.warn("job not returned on shutdown", {
                job: job.job_id,
                error: (error as Error).message,
              });
            });
          continue;
        }
        launch(job);
      }
      // The batch lane's answer says whether batch work waits. The live lane is seldom full,
      // so its short answer must not grow the pause: a busy runner would then look for the next
      // round's episodes only every `idle.maxMs`.
      const leasedBatch = leased.filter((job) => !isLive(job)).length;
      if (leasedBatch < free && !leasedCommissioner) {
        await pause(idleMs);
        idleMs = Math.min(idleMs * 2, idle.maxMs);
      } else {
        idleMs = idle.minMs;
        // Only the live lane has room: look for live games now and then; a finishing job wakes the loop.
        if (leased.length - leasedBatch < freeInteractive) await pause(idle.maxMs);
      }
    }
  };

  const looping = loop();
  let stopping: Promise<void> | null = null;
  const settled = () => Promise.allSettled([...jobs]);
  const stop = (graceMs: number): Promise<void> => {
    if (stopping !== null) {
      if (graceMs <= 0) abortJobs.abort();
      return stopping;
    }
    stopLeasing.abort();
    stopping = (async () => {
      await settledWork(looping);
      if (jobs.size > 0) {
        log.info("stopping: waiting for running episodes", {
          running: jobs.size,
          grace_ms: graceMs,
        });
        await Promise.race([settled(), delay(graceMs, abortJobs.signal)]);
      }
      if (jobs.size > 0) {
        log.info("stopping: aborting episodes still running; their jobs go back to the queue", {
          running: jobs.size,
        });
        abortJobs.abort();
        await settled();
      }
      await instance.release();
      log.info("runner stopped");
    })();
    return stopping;
  };
  const done = looping.then(
    () => stopping ?? stop(0),
    async (error: unknown) => {
      await (stopping ?? stop(0));
      throw error;
    },
  );
  // `done` is what callers await; this keeps an unobserved rejection from crashing the process.
  void settledWork(done);
  return { stop, done, running: () => jobs.size };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    }
    signal.addEventListener("abort", finish, { once: true });
  });
}
