#!/usr/bin/env node
// `gauntlet-runner --server URL --token T [--capacity N]`: leases episode jobs and runs
// them until SIGTERM or SIGINT (a second signal aborts what still runs). Started by a parent
// over IPC (the embedded runner of `gauntlet-server start`), it also stops when the parent goes.
import { createClient } from "@gauntlet/sdk";

import { ensureSandbox } from "./cli/ensure-sandbox.ts";
import { HelpShown, parseRunnerArgs, UsageError, type RunnerSettings } from "./cli/options.ts";
import { commissionerQueueOver } from "./commissioner/commissioner-queue.ts";
import { RunnerRefusedError, startRunner, type Runner } from "./worker/lease-loop.ts";
import { createLog } from "./worker/log.ts";
import { queueOver } from "./worker/queue.ts";
import { Redactor } from "./worker/redactor.ts";
import { ServerPool } from "./worker/servers.ts";

function fatal(message: string, code: number): never {
  process.stderr.write(`gauntlet-runner: ${message}\n`);
  process.exit(code);
}

let settings: RunnerSettings;
try {
  settings = parseRunnerArgs(process.argv.slice(2));
} catch (error) {
  if (error instanceof HelpShown) process.exit(0);
  fatal(error instanceof UsageError || error instanceof Error ? error.message : String(error), 2);
}

const redactor = new Redactor();
// The runner's own token is never logged either.
redactor.hold([settings.token]);
const log = createLog({
  format: settings.logFormat,
  level: settings.logLevel,
  redactor,
  write: (line) => process.stdout.write(line),
});
// Every address is a replica of one deployment: a call that gets no answer moves to the next.
const servers = new ServerPool({
  clients: settings.servers.map((url) => ({
    url,
    client: createClient({
      baseUrl: url,
      token: settings.token,
      useSavedCredentials: false,
      env: {},
    }),
  })),
  log,
});

// Listening from the start: a signal with no listener would end the process at once.
let runner: Runner | null = null;
let signals = 0;
const onSignal = (signal: string) => {
  signals += 1;
  // Nothing is leased before the runner has started.
  if (runner === null) process.exit(0);
  if (signals === 1) {
    log.info(`${signal}: finishing running episodes (a second signal aborts them)`, {
      grace_ms: settings.graceMs,
    });
    void runner.stop(settings.graceMs);
  } else void runner.stop(0);
};
process.on("SIGTERM", () => onSignal("SIGTERM"));
process.on("SIGINT", () => onSignal("SIGINT"));
if (process.connected) {
  // The parent that started us over IPC is gone: nobody will wait for a graceful end.
  process.once("disconnect", () => {
    if (runner === null) process.exit(0);
    log.info("parent process gone: stopping");
    void runner.stop(0);
  });
}

if (settings.runtime === "sandbox") {
  // Never a silent fallback to running code unsandboxed: no sandbox, no untrusted work.
  const problem = await ensureSandbox();
  if (problem !== null) fatal(`${problem}; refusing to run untrusted code`, 1);
}
if (settings.runtime === "process")
  log.warn(
    "TRUSTED CODE ONLY: the process runtime runs every coworld and policy unsandboxed, as this runner's user",
  );

try {
  runner = await startRunner({
    queue: queueOver(servers, settings.runnerId, settings.runtime),
    ...(settings.commissionerCapacity > 0
      ? {
          commissioners: commissionerQueueOver(servers, settings.runnerId, settings.runtime),
          commissionerCapacity: settings.commissionerCapacity,
        }
      : {}),
    trustedCode: settings.trustedCode,
    workDir: settings.workDir,
    concurrency: settings.concurrency,
    interactiveCapacity: settings.interactiveCapacity,
    runtime: settings.runtime,
    bundleCacheBytes: settings.bundleCacheBytes,
    episode: {
      artifactMaxBytes: settings.artifactMaxBytes,
      limits: settings.limits,
      seatWallClockMs: settings.seatWallClockMs,
      containerLimits: settings.containerLimits,
    },
    log,
    redactor,
  });
} catch (error) {
  fatal(`cannot start: ${(error as Error).message}`, 1);
}
log.info("runner started", {
  server: settings.servers.join(","),
  runner_id: settings.runnerId,
  capacity: settings.concurrency,
  interactive_capacity: settings.interactiveCapacity,
  commissioner_capacity: settings.commissionerCapacity,
  runtime: settings.runtime,
  trusted_code: settings.trustedCode,
  work_dir: settings.workDir,
});
const started = runner;

try {
  await started.done;
  process.exit(0);
} catch (error) {
  if (error instanceof RunnerRefusedError) fatal(error.message, 1);
  fatal(`stopped: ${(error as Error).message}`, 1);
}
