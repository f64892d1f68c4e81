// One leased job, start to end: its files, its episode (by docs/runtime.md), heartbeats while it
// runs, its artifacts, and one report — complete, or fail with what went wrong. A job whose
// lease is lost is dropped without a report; one interrupted by shutdown is given back.

import { bestEffort, type LeasedJob } from "@gauntlet/core";
import { isConflictError } from "@gauntlet/sdk";

import { runEpisode } from "../episode/run-episode.ts";
import { removeTree } from "../episode/runtimes/remove-tree.ts";
import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import type { EpisodeEvent, EpisodeOutcome, RunEpisodeInput } from "../episode/types.ts";
import type { BundleCache } from "./bundle-cache.ts";
import { prepareEpisode } from "./episode-input.ts";
import { startHeartbeat } from "./heartbeat.ts";
import type { Instance } from "./instance-dir.ts";
import type { RunnerLog } from "./log.ts";
import type { LeaseRef, Queue } from "./queue.ts";
import type { Redactor } from "./redactor.ts";
import { scrubPaths } from "./scrub-paths.ts";
import { waitForPeople } from "./wait-for-people.ts";

/** How a job left this runner. */
export type JobEnd = "completed" | "failed" | "returned" | "lost" | "unreported";

export type EpisodeSettings = Partial<
  Pick<
    RunEpisodeInput,
    | "healthTimeoutMs"
    | "playerGraceMs"
    | "killGraceMs"
    | "logCapBytes"
    | "artifactMaxBytes"
    | "limits"
    | "seatWallClockMs"
    | "containerLimits"
  >
>;

export interface JobDeps {
  queue: Queue;
  cache: BundleCache;
  instance: Instance;
  log: RunnerLog;
  redactor: Redactor;
  runtime: RuntimeKind;
  leaseSeconds: number;
  episode?: EpisodeSettings;
}

const ms = (from: number, to: number) => Math.max(0, Math.round(to - from));

/** Every string inside a value: a private config overlay is redacted leaf by leaf. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

function secretValues(job: LeasedJob): string[] {
  return [
    ...Object.values(job.secrets),
    ...job.players.flatMap((p) => Object.values(p.secret_env)),
    ...strings(job.game_config_overlay),
  ];
}

export async function runJob(
  deps: JobDeps,
  job: LeasedJob,
  shutdown: AbortSignal,
): Promise<JobEnd> {
  const { log, queue } = deps;
  const t0 = performance.now();
  const release = deps.redactor.hold(secretValues(job));
  const unpin = deps.cache.pin(
    [job.coworld.bundle_sha256, ...job.players.map((p) => p.bundle_sha256)].filter(
      (sha): sha is string => sha !== null,
    ),
  );
  const ids = { job: job.job_id, attempt: job.attempt };
  const stop = new AbortController();
  let halted = null as "shutdown" | "lost" | null; // set by the stop listeners
  const halt = (why: "shutdown" | "lost") => {
    halted ??= why;
    stop.abort();
  };
  const onShutdown = () => halt("shutdown");
  if (shutdown.aborted) onShutdown();
  else shutdown.addEventListener("abort", onShutdown, { once: true });
  const heartbeat = startHeartbeat({
    queue,
    job,
    leaseSeconds: deps.leaseSeconds,
    log,
    onLost: () => halt("lost"),
  });
  let jobDir: string | null = null;
  log.debug("job leased", {
    ...ids,
    coworld: `${job.coworld.name}@${job.coworld.version}`,
    episode_request: job.episode_request_id,
    seats: job.players.length,
  });

  const runnerError = async (error: unknown): Promise<JobEnd> => {
    const message = scrubPaths(
      deps.redactor.redact(error instanceof Error ? error.message : String(error)),
    );
    log.error("job failed on the runner", { ...ids, error: message });
    await queue.fail(job, {
      error_type: "runner_error",
      error: `runner: ${message}`.slice(0, 10_000),
      failed_policy_index: null,
    });
    return "failed";
  };
  const afterHalt = async (): Promise<JobEnd> => {
    if (halted === "lost") {
      log.warn("job dropped: its lease is no longer ours", ids);
      return "lost";
    }
    await queue.fail(
      job,
      {
        error_type: "returned",
        error: "the runner shut down before the episode ended",
        failed_policy_index: null,
      },
      { timeout: 5_000, retries: 1 },
    );
    log.info("job returned unrun (shutdown)", ids);
    return "returned";
  };

  try {
    jobDir = await deps.instance.jobDir();
    const dir = jobDir;
    let outcome: EpisodeOutcome;
    let prepared = t0;
    try {
      const input = await prepareEpisode(job, {
        cache: deps.cache,
        jobDir: dir,
        runtime: deps.runtime,
      });
      prepared = performance.now();
      if (!(await waitForPeople(queue, job, log, stop.signal))) {
        // The server ended the job (its person never came, or it was cancelled): nothing to report.
        if (halted === null) {
          log.info(
            "job ended before its game started (a person never connected, or it was cancelled)",
            ids,
          );
          return "lost";
        }
        return await afterHalt();
      }
      const onEvent = (event: EpisodeEvent) => logEvent(deps, ids, dir, event);
      outcome = await runEpisode({ ...input, ...deps.episode, signal: stop.signal, onEvent });
    } catch (error) {
      if (halted !== null) return await afterHalt();
      return await runnerError(error);
    }
    if (halted !== null) return await afterHalt();
    // A lease that expired while the episode ran may belong to another runner by now.
    if (!(await heartbeat.confirm())) return "lost";

    const uploadStart = performance.now();
    try {
      await uploadArtifacts(deps, job, outcome);
    } catch (error) {
      if (isConflictError(error)) {
        log.warn("job ended elsewhere while its artifacts were uploaded; dropped", ids);
        return "lost";
      }
      return await runnerError(
        new Error(`could not upload the artifacts: ${(error as Error).message}`),
      );
    }
    const reportStart = performance.now();
    let end: JobEnd;
    if (outcome.status === "completed") {
      await queue.complete(job, {
        results: outcome.results,
        timings: outcome.timings,
        cpu: outcome.cpu,
      });
      end = "completed";
    } else {
      const error = scrubPaths(deps.redactor.redact(outcome.error)).slice(0, 10_000);
      await queue.fail(job, {
        error_type: outcome.error_type,
        error,
        failed_policy_index: outcome.failed_policy_index,
        timings: outcome.timings,
        cpu: outcome.cpu,
      });
      end = "failed";
    }
    const done = performance.now();
    log.info(`job ${end}`, {
      ...ids,
      ...(outcome.status === "failed"
        ? {
            error_type: outcome.error_type,
            failed_policy_index: outcome.failed_policy_index,
            error: outcome.error,
          }
        : {}),
      prepare_ms: ms(t0, prepared),
      start_ms: outcome.timings.startMs,
      healthy_ms: outcome.timings.healthyMs,
      game_ms: outcome.timings.gameMs,
      episode_ms: outcome.timings.totalMs,
      cpu_seats: outcome.cpu.seats.map((s) => s ?? "-").join(" "),
      cpu_game: outcome.cpu.game,
      runner_busy: outcome.cpu.runner.busy_fraction,
      upload_ms: ms(uploadStart, reportStart),
      report_ms: ms(reportStart, done),
      total_ms: ms(t0, done),
    });
    return end;
  } catch (error) {
    // The report itself could not be delivered: the lease will expire and the job run again.
    log.error("job outcome could not be reported", {
      ...ids,
      error: deps.redactor.redact((error as Error).message),
    });
    return "unreported";
  } finally {
    heartbeat.stop();
    shutdown.removeEventListener("abort", onShutdown);
    if (jobDir !== null) await bestEffort(removeTree(jobDir));
    release();
    unpin();
  }
}

async function uploadArtifacts(
  deps: JobDeps,
  job: LeaseRef,
  outcome: EpisodeOutcome,
): Promise<void> {
  const text = (value: string) => Buffer.from(deps.redactor.redact(value), "utf8");
  const artifacts: [string, Uint8Array][] = [["logs", text(outcome.gameLog)]];
  outcome.playerLogs.forEach((log, slot) => artifacts.push([`policy-log-${slot}`, text(log)]));
  outcome.playerArtifacts.forEach((bytes, slot) => {
    if (bytes !== null) artifacts.push([`policy-artifact-${slot}`, bytes]);
  });
  if (outcome.replay !== null) artifacts.push(["replay", outcome.replay]);
  // A kept seat's new state counts only when the episode completed (docs/runtime.md).
  if (outcome.status === "completed")
    outcome.playerStates.forEach((bytes, slot) => {
      if (bytes !== null) artifacts.push([`state-${slot}`, bytes]);
    });
  if (outcome.status === "completed")
    artifacts.push(["results", Buffer.from(JSON.stringify(outcome.results, null, 2))]);
  await Promise.all(artifacts.map(([name, bytes]) => deps.queue.upload(job, name, bytes)));
}

function logEvent(
  deps: JobDeps,
  ids: { job: string; attempt: number },
  jobDir: string,
  event: EpisodeEvent,
): void {
  switch (event.type) {
    case "started":
      if (event.pid !== null) deps.instance.recordGroup(jobDir, event.pid);
      deps.log.debug("started", { ...ids, runnable: event.runnable, pid: event.pid });
      return;
    case "healthy":
      deps.log.debug("game healthy", { ...ids, after_ms: event.after_ms });
      return;
    case "exited":
      deps.log.debug("exited", {
        ...ids,
        runnable: event.runnable,
        code: event.code,
        signal: event.signal,
        error: event.error,
      });
      return;
    case "note":
      deps.log.warn(event.message, ids);
      return;
    default:
      return;
  }
}
