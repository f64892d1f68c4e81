// The runner's command line: flags first, then GAUNTLET_SERVER and GAUNTLET_TOKEN (core's
// resolution, without the CLI's saved sign-in: a runner needs a machine token of its own).
import { readFileSync } from "node:fs";
import { availableParallelism, hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { Command, CommanderError, InvalidArgumentError, Option } from "commander";

import {
  InvalidServerUrlError,
  resolveServer,
  resolveToken,
  SERVER_ENV,
  TOKEN_ENV,
  type Env,
} from "@gauntlet/core";

import { DEFAULT_ARTIFACT_MAX_BYTES } from "../episode/artifact-receiver.ts";
import { DEFAULT_SEAT_WALL_CLOCK_MS } from "../episode/run-episode.ts";
import { DEFAULT_CONTAINER_LIMITS, type ContainerLimits } from "../episode/runtimes/docker.ts";
import { DEFAULT_CPUS, DEFAULT_LIMITS, type SandboxLimits } from "../episode/runtimes/limits.ts";
import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import { DEFAULT_BUNDLE_CACHE_BYTES } from "../worker/bundle-cache.ts";
import { LOG_LEVELS, type LogLevel } from "../worker/log.ts";

export interface RunnerSettings {
  /** The first of `servers` (what a single-server runner is told). */
  server: string;
  /** Every address given, in order: replicas of one deployment, tried in turn (servers.ts). */
  servers: string[];
  token: string;
  /** Batch episodes (no seat played by a person) run at once. */
  concurrency: number;
  /** Episodes with a seat a person plays run at once, besides the batch ones (their own lane). */
  interactiveCapacity: number;
  /** Coworld commissioner sessions run at once, besides the batch ones (their own lane). */
  commissionerCapacity: number;
  runtime: RuntimeKind;
  /** Every coworld and policy this runner runs is trusted: the only way to the process runtime. */
  trustedCode: boolean;
  /** Limits of each sandboxed runnable. */
  limits: SandboxLimits;
  /** Wall-clock time of each player on every runtime, in milliseconds; 0 for none. */
  seatWallClockMs: number;
  /** Size cap of the extracted-bundle cache; least recently used bundles go first. */
  bundleCacheBytes: number;
  workDir: string;
  runnerId: string;
  graceMs: number;
  /** The size limit of a player's artifact upload; 0 offers players no upload address. */
  artifactMaxBytes: number;
  /** The docker runtime's limits of each container. */
  containerLimits: ContainerLimits;
  logFormat: "text" | "json";
  logLevel: LogLevel;
}

/** A bad command line: one line for stderr. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** `--help` was asked for and printed. */
export class HelpShown extends Error {
  override readonly name = "HelpShown";
}

const MB = 1024 * 1024;

/** Episodes mostly wait on their players' moves: one per core, at least 2, at most 8. */
export function defaultCapacity(cores = availableParallelism()): number {
  return Math.max(2, Math.min(8, cores));
}

/** Live games a runner plays at once beside its batch episodes. */
export const DEFAULT_INTERACTIVE_CAPACITY = 4;
/** Commissioner sessions mostly wait on their rounds' episodes: a lane of their own, not a batch slot. */
export const DEFAULT_COMMISSIONER_CAPACITY = 2;

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

function seconds(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 86_400)
    throw new InvalidArgumentError("expected seconds from 0 to 86400");
  return n;
}

function cpus(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0.01 || n > 256)
    throw new InvalidArgumentError("expected a number of CPUs from 0.01 to 256");
  return n;
}

function runnerId(value: string): string {
  const id = value.trim();
  if (id.length === 0 || id.length > 100)
    throw new InvalidArgumentError("expected 1 to 100 characters");
  return id;
}

interface Flags {
  server?: string[];
  token?: string;
  tokenStdin?: boolean;
  capacity?: number;
  concurrency?: number;
  interactiveCapacity: number;
  commissionerCapacity: number;
  runtime: RuntimeKind;
  trustedCode?: boolean;
  sandboxMemoryMb: number;
  sandboxPids: number;
  sandboxCpuSeconds: number;
  sandboxCpus: number;
  seatWallSeconds: number;
  sandboxScratchMb: number;
  bundleCacheMb: number;
  workDir?: string;
  runnerId?: string;
  graceSeconds: number;
  artifactMaxBytes: number;
  containerMemoryMib: number;
  containerPids: number;
  containerCpus: number;
  containerScratchMib: number;
  containerCpuSeconds: number;
  logFormat: "text" | "json";
  logLevel?: LogLevel;
}

const MIB = 1024 * 1024;

function command(writeOut: (text: string) => void): Command {
  return new Command("gauntlet-runner")
    .description("Lease episode jobs from a Gauntlet server and run them (docs/runtime.md).")
    .option(
      "--server <url>",
      `the server's base address; repeat it or give a comma list for several replicas, tried in turn when one does not answer (env ${SERVER_ENV})`,
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      "--token <token>",
      `a machine token (env ${TOKEN_ENV}; prefer the environment: arguments show in ps)`,
    )
    .option(
      "--token-stdin",
      "read the machine token from standard input (one line): it is then in no argument, environment or file",
    )
    .option(
      "--capacity <n>",
      `batch episodes run at once, each in its own sandbox (default: one per core, 2 to 8; here ${defaultCapacity()})`,
      integer(1, 64),
    )
    .addOption(
      new Option("--concurrency <n>", "the former name of --capacity")
        .argParser(integer(1, 64))
        .hideHelp(),
    )
    .option(
      "--interactive-capacity <n>",
      "live games (a seat a person plays) run at once besides --capacity, in a lane of their own; 0 plays none",
      integer(0, 64),
      DEFAULT_INTERACTIVE_CAPACITY,
    )
    .option(
      "--commissioner-capacity <n>",
      "coworld commissioner sessions (each in its own sandbox; they mostly wait on their rounds) run at once besides --capacity, in a lane of their own; 0 runs none",
      integer(0, 64),
      DEFAULT_COMMISSIONER_CAPACITY,
    )
    .addOption(
      new Option(
        "--runtime <runtime>",
        "where runnables run: sandbox (each in a bubblewrap sandbox), process (unsandboxed, needs --trusted-code), docker",
      )
        .choices(["sandbox", "process", "docker"])
        .default("sandbox"),
    )
    .option(
      "--trusted-code",
      "every coworld and policy this runner runs is trusted: allows --runtime process (env GAUNTLET_RUNNER_TRUSTED=1)",
    )
    .option(
      "--sandbox-memory-mb <n>",
      "memory of each sandboxed runnable",
      integer(16, 1024 * 1024),
      DEFAULT_LIMITS.memoryBytes / MB,
    )
    .option(
      "--sandbox-pids <n>",
      "processes and threads of each sandboxed runnable",
      integer(8, 1_000_000),
      DEFAULT_LIMITS.pids,
    )
    .option(
      "--sandbox-cpu-seconds <n>",
      "CPU time of each process in a sandbox, in seconds",
      integer(1, 86_400),
      DEFAULT_LIMITS.cpuSeconds,
    )
    .option(
      "--sandbox-cpus <n>",
      "CPUs each sandboxed runnable may use at once (its cgroup's cap; every seat has an equal share) unless the coworld's manifest gives player[].resources.limits.cpu",
      cpus,
      DEFAULT_CPUS,
    )
    .option(
      "--seat-wall-seconds <n>",
      "wall-clock time of each player, from its start, on every runtime; past it the episode fails as policy_timeout, blamed on the seat (0: no limit but the job's deadline)",
      integer(0, 86_400),
      DEFAULT_SEAT_WALL_CLOCK_MS / 1000,
    )
    .option(
      "--sandbox-scratch-mb <n>",
      "size of each sandboxed runnable's /tmp",
      integer(1, 1024 * 1024),
      DEFAULT_LIMITS.scratchBytes / MB,
    )
    .option(
      "--bundle-cache-mb <n>",
      "size cap of the extracted-bundle cache (least recently used bundles are evicted)",
      integer(1, 1024 * 1024 * 1024),
      DEFAULT_BUNDLE_CACHE_BYTES / MB,
    )
    .option(
      "--work-dir <dir>",
      "bundles and episode files (default: a directory under the system's temp directory)",
    )
    .option(
      "--runner-id <id>",
      "this runner's name in leases (default: host name and process id)",
      runnerId,
    )
    .option(
      "--grace-seconds <s>",
      "on SIGTERM or SIGINT, how long running episodes may take to finish",
      seconds,
      30,
    )
    .option(
      "--artifact-max-bytes <n>",
      "size limit of a player's artifact upload (COWORLD_PLAYER_ARTIFACT_UPLOAD_URL); 0 offers none",
      integer(0, 1024 * 1024 * 1024),
      DEFAULT_ARTIFACT_MAX_BYTES,
    )
    .option(
      "--container-memory-mib <n>",
      "docker runtime: memory of each container, no swap; over it the episode fails as out_of_memory",
      integer(16, 1024 * 1024),
      DEFAULT_CONTAINER_LIMITS.memoryBytes / MIB,
    )
    .option(
      "--container-pids <n>",
      "docker runtime: processes and threads of each container",
      integer(8, 65_536),
      DEFAULT_CONTAINER_LIMITS.pids,
    )
    .option(
      "--container-cpus <n>",
      "docker runtime: CPUs of each container",
      cpus,
      DEFAULT_CONTAINER_LIMITS.cpus,
    )
    .option(
      "--container-scratch-mib <n>",
      "docker runtime: size of each container's writable /tmp",
      integer(1, 1024 * 1024),
      DEFAULT_CONTAINER_LIMITS.scratchBytes / MIB,
    )
    .option(
      "--container-cpu-seconds <n>",
      "docker runtime: CPU time of each process in a container, in seconds; past it the episode fails as resource_limit",
      integer(1, 86_400),
      DEFAULT_CONTAINER_LIMITS.cpuSeconds,
    )
    .addOption(
      new Option("--log-format <format>", "log lines for people or for collectors")
        .choices(["text", "json"])
        .default("text"),
    )
    .addOption(
      new Option(
        "--log-level <level>",
        "debug: each runnable's start and exit; info: a line per job (env LOG_LEVEL; default info)",
      ).choices(LOG_LEVELS),
    )
    .helpOption("-h, --help", "show this help")
    .exitOverride()
    .configureOutput({ writeOut, writeErr: () => {}, outputError: () => {} })
    .allowExcessArguments(false);
}

function logLevelFromEnv(env: Env): LogLevel {
  const value = env.LOG_LEVEL?.trim().toLowerCase();
  if (value === undefined || value === "") return "info";
  // The server's level names (pino) mean the same here.
  const named = value === "trace" ? "debug" : value === "fatal" ? "error" : value;
  const level = LOG_LEVELS.find((l) => l === named);
  if (!level)
    throw new UsageError(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not ${JSON.stringify(env.LOG_LEVEL)}`,
    );
  return level;
}

export function parseRunnerArgs(
  argv: string[],
  env: Env = process.env,
  writeOut: (text: string) => void = (t) => process.stdout.write(t),
  readStdin: () => string = () => readFileSync(0, "utf8"),
): RunnerSettings {
  const program = command(writeOut);
  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.help")
        throw new HelpShown();
      throw new UsageError(error.message.replace(/^error: /, ""));
    }
    throw error;
  }
  const flags = program.opts<Flags>();
  const given = (flags.server ?? [env[SERVER_ENV] ?? ""])
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  const servers: string[] = [];
  try {
    for (const explicit of given) {
      const resolved = resolveServer({ explicit, env: {}, useSavedCredentials: false });
      if (resolved && !servers.includes(resolved.url)) servers.push(resolved.url);
    }
  } catch (error) {
    if (error instanceof InvalidServerUrlError) throw new UsageError(error.message);
    throw error;
  }
  const server = servers[0] === undefined ? null : { url: servers[0] };
  if (server === null) throw new UsageError(`no server: pass --server <url> or set ${SERVER_ENV}`);
  const piped = flags.tokenStdin ? readStdin().trim() : undefined;
  if (piped === "") throw new UsageError("--token-stdin: standard input held no token");
  const token = resolveToken({
    server: server.url,
    explicit: piped ?? flags.token,
    env,
    useSavedCredentials: false,
  });
  if (token === null)
    throw new UsageError(`no token: set ${TOKEN_ENV} (or pass --token) to a machine token`);
  const trustedCode = flags.trustedCode === true || env.GAUNTLET_RUNNER_TRUSTED === "1";
  if (flags.runtime === "process" && !trustedCode)
    throw new UsageError(
      "the process runtime runs code unsandboxed, as this runner's user: pass --trusted-code (or set GAUNTLET_RUNNER_TRUSTED=1) only if every coworld and policy it runs is trusted",
    );
  return {
    server: server.url,
    servers,
    token: token.token,
    concurrency: flags.capacity ?? flags.concurrency ?? defaultCapacity(),
    interactiveCapacity: flags.interactiveCapacity,
    commissionerCapacity: flags.commissionerCapacity,
    runtime: flags.runtime,
    trustedCode,
    limits: {
      ...DEFAULT_LIMITS,
      memoryBytes: flags.sandboxMemoryMb * MB,
      pids: flags.sandboxPids,
      cpuSeconds: flags.sandboxCpuSeconds,
      cpus: flags.sandboxCpus,
      scratchBytes: flags.sandboxScratchMb * MB,
    },
    seatWallClockMs: flags.seatWallSeconds * 1000,
    bundleCacheBytes: flags.bundleCacheMb * MB,
    workDir: resolve(
      flags.workDir ?? join(tmpdir(), `gauntlet-runner-${process.getuid?.() ?? "user"}`),
    ),
    runnerId: flags.runnerId ?? `${hostname()}-${process.pid}`.slice(0, 100),
    graceMs: Math.round(flags.graceSeconds * 1000),
    artifactMaxBytes: flags.artifactMaxBytes,
    containerLimits: {
      ...DEFAULT_CONTAINER_LIMITS,
      memoryBytes: flags.containerMemoryMib * MIB,
      pids: flags.containerPids,
      cpus: flags.containerCpus,
      scratchBytes: flags.containerScratchMib * MIB,
      cpuSeconds: flags.containerCpuSeconds,
    },
    logFormat: flags.logFormat,
    logLevel: flags.logLevel ?? logLevelFromEnv(env),
  };
}
