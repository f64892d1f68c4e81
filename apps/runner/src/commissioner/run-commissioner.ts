// One leased commissioner job, start to end (docs/runtime.md, "The commissioner"): the coworld's
// commissioner runnable started in a box of its own (a fresh sandbox, or a container), `/healthz`
// polled until 200 within the job's startup timeout, then its `/round` socket bridged to the
// session's relay on the server until either side ends; then the box is stopped and the job's one
// report carries the outcome and the commissioner's log, capped. The commissioner reaches nothing
// but its own port, which only the runner connects to; the relay's address (it carries a token)
// never reaches the box or a log.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";

import { WebSocket as WsSocket } from "ws";

import {
  bestEffort,
  COMMISSIONER_LOG_MAX_BYTES,
  COMMISSIONER_MESSAGE_MAX_BYTES,
  type CommissionerJob,
} from "@gauntlet/core";

import { dockerRuntime, type ContainerLimits } from "../episode/runtimes/docker.ts";
import { DEFAULT_CPUS, DEFAULT_LIMITS, type SandboxLimits } from "../episode/runtimes/limits.ts";
import { delay, processRuntime } from "../episode/runtimes/process.ts";
import type { Runtime, RuntimeKind, StartedRunnable } from "../episode/runtimes/runtime.ts";
import { sandboxRuntime } from "../episode/runtimes/sandbox.ts";
import type { BundleCache } from "../worker/bundle-cache.ts";
import type { RunnerLog } from "../worker/log.ts";
import type { Redactor } from "../worker/redactor.ts";
import { scrubPaths } from "../worker/scrub-paths.ts";
import type { CommissionerQueue, CommissionerReport } from "./commissioner-queue.ts";
import { relayFrames } from "./relay-frames.ts";

/** The runner's closes of the relay that say how the commissioner ended (server: runner-relay.ts). */
const CLOSE_CRASHED = 4500;
const CLOSE_OVERSIZED = 4413;
const HEALTH_POLL_MS = 50;
/** How long a closed /round waits for the box's exit before it counts as closed, not crashed. */
const CRASH_LOOK_MS = 3_000;
/**
 * What the runner holds of a commissioner's messages not yet sent on to the server, at most,
 * before it stops reading the commissioner's socket (and its writes back up in the box): without
 * it a commissioner that writes faster than the relay sends grew the runner's memory without end.
 */
const RELAY_BACKLOG_MAX_BYTES = 2 * COMMISSIONER_MESSAGE_MAX_BYTES;
// The same bound holds the other way: what the platform sent that the commissioner has not read.
const BACKLOG_LOOK_MS = 20;

export interface CommissionerDeps {
  queue: CommissionerQueue;
  cache: BundleCache;
  /** A fresh directory of this job's own, removed by the caller. */
  jobDir: string;
  runtime: RuntimeKind;
  /** The runner's limits of a runnable (`--sandbox-*`, `--container-*`): a commissioner gets a
   * game's. The defaults unless given. */
  limits?: SandboxLimits | undefined;
  containerLimits?: Partial<ContainerLimits> | undefined;
  log: RunnerLog;
  redactor: Redactor;
}

type Outcome = Pick<CommissionerReport, "outcome" | "error">;

/** The box's own directory in its job's: what the docker runtime labels the box's containers
 * with, so that the sweep after a killed runner finds them (instance-dir.ts). */
export function commissionerDir(jobDir: string): string {
  return join(jobDir, "commissioner");
}

export async function runCommissioner(
  deps: CommissionerDeps,
  job: CommissionerJob,
  shutdown: AbortSignal,
): Promise<CommissionerReport["outcome"]> {
  const ids = { commissioner_job: job.job_id, purpose: job.purpose };
  const unpin = deps.cache.pin(
    job.coworld.bundle_sha256 === null ? [] : [job.coworld.bundle_sha256],
  );
  const options = { logCapBytes: COMMISSIONER_LOG_MAX_BYTES, killGraceMs: 500 };
  const runtime: Runtime =
    deps.runtime === "docker"
      ? dockerRuntime({ ...options, limits: deps.containerLimits })
      : deps.runtime === "process"
        ? processRuntime(options)
        : sandboxRuntime({
            ...options,
            limits: { ...(deps.limits ?? DEFAULT_LIMITS), cpus: deps.limits?.cpus ?? DEFAULT_CPUS },
          });
  let started: StartedRunnable | null = null;
  let outcome: Outcome;
  try {
    outcome = await (async (): Promise<Outcome> => {
      const spec = { run: job.runnable.run ?? undefined, image: job.runnable.image ?? undefined };
      const unusable = runtime.unusable(spec);
      if (unusable !== null) return { outcome: "runner_error", error: unusable };
      let cwd: string;
      if (job.coworld.bundle_sha256 !== null)
        cwd = await deps.cache.directory(job.coworld.bundle_sha256);
      else if (deps.runtime === "docker") {
        cwd = join(deps.jobDir, "no-files");
        await mkdir(cwd, { recursive: true });
      } else
        return { outcome: "runner_error", error: "the commissioner has no files: docker only" };
      // The box's own directory: nothing in it is shared with any other program or job.
      const boxDir = commissionerDir(deps.jobDir);
      await mkdir(boxDir, { mode: 0o700 });
      await runtime.layout(boxDir);
      started = await runtime.start({
        // The runtime's listening role: port 8080 inside, reached by the runner alone.
        name: "game",
        ...spec,
        cwd,
        env: job.runnable.env,
        identity: `coworld ${job.coworld.id} ${job.coworld.version} ${job.coworld.bundle_sha256 ?? "image"} commissioner ${job.runnable_id}`,
        mountsWorkDir: false,
      });
      const box = started;
      const deadline = performance.now() + job.deadline_ms;
      const healthy = await waitHealthy(runtime, box, job.startup_timeout_ms, shutdown);
      if (healthy !== null) return healthy;
      deps.log.debug("commissioner healthy", ids);
      return await bridge(await runtime.gameUrl(box), job.relay_url, box, deadline, shutdown);
    })();
  } catch (error) {
    outcome = { outcome: "runner_error", error: (error as Error).message };
  }
  const box = started as StartedRunnable | null;
  if (box) await bestEffort(box.stop());
  const log = box ? box.log() : "";
  await bestEffort(runtime.dispose());
  unpin();
  const report: CommissionerReport = {
    outcome: outcome.outcome,
    error: scrubPaths(deps.redactor.redact(outcome.error)).slice(0, 10_000),
    log: deps.redactor.redact(tail(log)),
  };
  try {
    await deps.queue.end(job, report);
  } catch (error) {
    deps.log.warn("commissioner job's end could not be reported", {
      ...ids,
      error: deps.redactor.redact((error as Error).message),
    });
  }
  deps.log.info(`commissioner job ${report.outcome}`, { ...ids, error: report.error });
  return report.outcome;
}

function tail(log: string): string {
  const bytes = Buffer.from(log, "utf8");
  return bytes.byteLength <= COMMISSIONER_LOG_MAX_BYTES
    ? log
    : bytes.subarray(bytes.byteLength - COMMISSIONER_LOG_MAX_BYTES).toString("utf8");
}

/** null once /healthz answers 200; the failure otherwise. */
async function waitHealthy(
  runtime: Runtime,
  box: StartedRunnable,
  timeoutMs: number,
  shutdown: AbortSignal,
): Promise<Outcome | null> {
  const state = { exited: false };
  void box.exited.then(() => (state.exited = true));
  const until = performance.now() + timeoutMs;
  let last = "no answer";
  for (;;) {
    if (shutdown.aborted) return { outcome: "runner_error", error: "the runner shut down" };
    if (state.exited)
      return { outcome: "crashed", error: "the commissioner exited before /healthz answered 200" };
    const left = until - performance.now();
    if (left <= 0)
      return {
        outcome: "unhealthy",
        error: `the commissioner did not answer 200 on /healthz within ${timeoutMs} ms (last: ${last})`,
      };
    if ((await box.listening?.()) !== false) {
      try {
        const response = await fetch(`${await runtime.gameUrl(box)}/healthz`, {
          signal: AbortSignal.timeout(Math.ceil(Math.min(1_000, left))),
        });
        await response.body?.cancel();
        if (response.status === 200) return null;
        last = `status ${response.status}`;
      } catch (error) {
        last = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      }
    } else last = "not listening";
    await Promise.race([delay(HEALTH_POLL_MS), box.exited]);
  }
}

/** Frames both ways until either side ends; what the commissioner sends is cut for the relay. */
async function bridge(
  boxUrl: string,
  relayUrl: string,
  box: StartedRunnable,
  deadline: number,
  shutdown: AbortSignal,
): Promise<Outcome> {
  // The `ws` client, not Node's: it refuses a message past the protocol's 16 MiB as it arrives
  // (Node's own would gather up to 128 MiB of a fragmented one before anything could check it).
  const commissioner = new WsSocket(`${boxUrl.replace(/^http/, "ws")}/round`, {
    maxPayload: COMMISSIONER_MESSAGE_MAX_BYTES,
  });
  const opened = await new Promise<boolean>((resolve) => {
    commissioner.addEventListener("open", () => resolve(true), { once: true });
    commissioner.addEventListener("error", () => resolve(false), { once: true });
  });
  if (!opened)
    return { outcome: "crashed", error: "the commissioner's /round socket did not open" };
  const relay = new WebSocket(relayUrl);
  return new Promise<Outcome>((resolve) => {
    let done = false;
    const finish = (outcome: Outcome, relayCode: number, reason: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(drain);
      shutdown.removeEventListener("abort", onShutdown);
      if (relay.readyState === WebSocket.OPEN || relay.readyState === WebSocket.CONNECTING)
        relay.close(relayCode, reason.slice(0, 100));
      if (commissioner.readyState === WsSocket.OPEN) commissioner.close(1000, "session over");
      resolve(outcome);
    };
    // Held back from the relay: before it opens (early), then in its send buffer.
    let earlyBytes = 0;
    const backlog = () => earlyBytes + relay.bufferedAmount;
    let reading = true;
    let drain: ReturnType<typeof setInterval> | undefined;
    const throttle = () => {
      if (!reading || backlog() <= RELAY_BACKLOG_MAX_BYTES) return;
      reading = false;
      commissioner.pause();
      drain = setInterval(() => {
        if (done) return clearInterval(drain);
        if (backlog() > RELAY_BACKLOG_MAX_BYTES / 2) return;
        clearInterval(drain);
        reading = true;
        commissioner.resume();
      }, BACKLOG_LOOK_MS);
    };
    const timer = setTimeout(
      () =>
        finish({ outcome: "ended", error: "the session outlived its deadline" }, 1000, "deadline"),
      Math.max(0, deadline - performance.now()),
    );
    const onShutdown = () =>
      finish({ outcome: "runner_error", error: "the runner shut down" }, 4001, "runner stopping");
    shutdown.addEventListener("abort", onShutdown, { once: true });
    commissioner.on("error", (error: Error & { code?: string }) => {
      if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH")
        finish(
          { outcome: "oversized", error: "the commissioner sent a message past 16 MiB" },
          CLOSE_OVERSIZED,
          "a message past 16 MiB",
        );
    });
    const early: string[] = [];
    commissioner.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        // Not a protocol message: the server fails the session as malformed.
        if (relay.readyState === WebSocket.OPEN) relay.send(".<binary frame>");
        return;
      }
      if (Buffer.byteLength(event.data) > COMMISSIONER_MESSAGE_MAX_BYTES) {
        finish(
          { outcome: "oversized", error: "the commissioner sent a message past 16 MiB" },
          CLOSE_OVERSIZED,
          "a message past 16 MiB",
        );
        return;
      }
      if (relay.readyState === WebSocket.OPEN)
        for (const frame of relayFrames(event.data)) relay.send(frame);
      else {
        early.push(event.data);
        earlyBytes += Buffer.byteLength(event.data);
      }
      throttle();
    });
    commissioner.addEventListener("close", () => {
      // Its process gone too is a crash; a socket closed by a live one is not. The box's exit is
      // seen a little after its program's (the sandbox's first process ends after it): a busy
      // host may take a while.
      void Promise.race([box.exited.then(() => true), delay(CRASH_LOOK_MS).then(() => false)]).then(
        (crashed) =>
          finish(
            crashed
              ? { outcome: "crashed", error: "the commissioner exited during the session" }
              : { outcome: "ended", error: "" },
            crashed ? CLOSE_CRASHED : 1000,
            crashed ? "the commissioner exited" : "the commissioner closed /round",
          ),
      );
    });
    relay.addEventListener("open", () => {
      for (const text of early.splice(0)) for (const frame of relayFrames(text)) relay.send(frame);
      earlyBytes = 0;
    });
    relay.addEventListener("message", (event: MessageEvent) => {
      if (typeof event.data !== "string" || commissioner.readyState !== WsSocket.OPEN) return;
      // A commissioner that does not read would have the platform's answers held here without
      // end (each refusal of a request echoes it back): past the bound its session ends.
      if (commissioner.bufferedAmount > RELAY_BACKLOG_MAX_BYTES) {
        finish(
          {
            outcome: "oversized",
            error: `the commissioner left ${commissioner.bufferedAmount} bytes the platform sent unread`,
          },
          CLOSE_OVERSIZED,
          "the commissioner reads nothing",
        );
        return;
      }
      commissioner.send(event.data);
    });
    relay.addEventListener("close", (event: CloseEvent) =>
      finish(
        event.code === 1000
          ? { outcome: "ended", error: "" }
          : { outcome: "ended", error: `the server's relay closed (${event.code})` },
        1000,
        "",
      ),
    );
  });
}
