// The escape suite: hostile players and a hostile game (escape-fixtures/hostile.ts) try to get
// out of their box on every runtime present — the sandbox always; another runtime joins by an
// entry in RUNTIMES. The host is laid out as a runner's is: a data directory with the admin's
// password, the key, the database and the runner's token; a bundle cache with another user's
// bundle; a "runner" process whose environment holds a token; a stand-in for the server's port
// that counts every connection. Every attempt must fail (the fixtures report each on their log,
// and the suite reads it), each limit must end the episode with its documented reason blaming
// the right seat, and an ordinary GridRush episode must pass on the same runtime afterwards.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { CoworldManifest } from "@gauntlet/core";

import {
  bundledPlayer,
  gridrushEpisode,
  gridrushManifest,
  isRunning,
  removeWorkDirs,
} from "../../testing/episodes.ts";
import { episodeDir } from "../worker/episode-input.ts";
import { claimInstance, type Instance } from "../worker/instance-dir.ts";
import { runEpisode } from "./run-episode.ts";
import type { SandboxLimits } from "./runtimes/limits.ts";
import type { RuntimeKind } from "./runtimes/runtime.ts";
import { sandboxProblem } from "./runtimes/sandbox-probe.ts";
import type { EpisodeOutcome, EpisodePlayer, RunEpisodeInput } from "./types.ts";

interface RuntimeUnderTest {
  kind: RuntimeKind;
  /** Why it cannot run here, or null. */
  problem: () => Promise<string | null>;
  /** A runtime that must be present (the default): its absence fails the suite. */
  required: boolean;
}

const RUNTIMES: RuntimeUnderTest[] = [{ kind: "sandbox", problem: sandboxProblem, required: true }];

const LIMITS: SandboxLimits = {
  memoryBytes: 256 * 1024 * 1024,
  pids: 64,
  cpuSeconds: 3,
  openFiles: 256,
  scratchBytes: 8 * 1024 * 1024,
  outputBytes: 16 * 1024 * 1024,
};

const canary = (name: string) => `canary-${name}-${randomBytes(12).toString("hex")}`;
const CANARIES = {
  adminPassword: canary("admin"),
  secretKey: canary("key"),
  database: canary("db"),
  tokenFile: canary("token-file"),
  runnerEnv: canary("runner-env"),
  otherBundle: canary("bundle"),
  seat0: canary("seat0"),
  seat1: canary("seat1"),
  gameSecret: canary("game"),
};
const ALL_CANARIES = Object.values(CANARIES);
/** What a runner knows of a job that a sandbox must not learn from its mounts. */
const IDS = {
  job: randomUUID(),
  episode: randomUUID(),
  coworld: randomUUID(),
  user: randomUUID(),
  policyVersion: randomUUID(),
};

const root = mkdtempSync(join(tmpdir(), "gauntlet-escape-"));
const dataDir = join(root, "data");
/** The runner's work directory: its bundle cache, and its own directory with a job's. */
const runnerWork = join(root, "work");
const bundles = join(runnerWork, "bundles");
const hostileBundle = join(bundles, "a".repeat(64));
const otherBundle = join(bundles, "b".repeat(64));
/** Files of the host that a link planted in a sandbox's tree points to: they must survive. */
const hostCanaryDir = join(root, "host-canary");
let fakeRunner: ChildProcess;
let instance: Instance;
let standIn: Server;
let standInConnections = 0;
let serverPort = 0;

beforeAll(async () => {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, "first-admin.txt"), `admin@localhost ${CANARIES.adminPassword}\n`);
  writeFileSync(join(dataDir, "secret.key"), CANARIES.secretKey);
  writeFileSync(join(dataDir, "gauntlet.db"), CANARIES.database);
  writeFileSync(join(dataDir, "embedded-runner.token"), CANARIES.tokenFile);
  mkdirSync(hostileBundle, { recursive: true });
  copyFileSync(
    join(import.meta.dirname, "escape-fixtures/hostile.ts"),
    join(hostileBundle, "hostile.ts"),
  );
  mkdirSync(otherBundle, { recursive: true });
  writeFileSync(join(otherBundle, "secret.txt"), CANARIES.otherBundle);
  mkdirSync(hostCanaryDir);
  instance = await claimInstance(runnerWork, "sandbox");
  for (let i = 0; i < 10; i += 1) writeFileSync(join(hostCanaryDir, `keep-${i}`), "host file");
  // A process with the runner's token in its environment, as the embedded runner has.
  fakeRunner = spawn("sleep", ["600"], {
    env: { PATH: process.env.PATH ?? "", GAUNTLET_TOKEN: CANARIES.runnerEnv },
    stdio: "ignore",
  });
  // The server's port, on every address: any connection from a runnable is an escape.
  standIn = createServer((_req, res) => res.end("{}"));
  standIn.on("connection", () => (standInConnections += 1));
  await new Promise<void>((resolve) => standIn.listen(0, "0.0.0.0", resolve));
  const address = standIn.address();
  serverPort = typeof address === "object" && address !== null ? address.port : 0;
});

afterAll(async () => {
  fakeRunner.kill("SIGKILL");
  await new Promise<void>((resolve) => standIn.close(() => resolve()));
  removeWorkDirs();
  rmSync(root, { recursive: true, force: true });
});

function targets(): string {
  const hostAddresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === "IPv4" && !a.internal)
    .map((a) => a?.address ?? "");
  return JSON.stringify({
    dataDir,
    tokenFile: join(dataDir, "embedded-runner.token"),
    runnerPids: [process.pid, fakeRunner.pid ?? 0],
    otherBundle,
    ownBundleOnHost: hostileBundle,
    serverPort,
    hostAddresses,
    canaries: ALL_CANARIES,
    allowedPorts: [],
    hostCanaryDir,
    identifiers: Object.values(IDS),
  });
}

/** The game as a hostile program in `mode`, its probes skipped. */
function hostileGame(mode: string): CoworldManifest {
  const manifest: CoworldManifest = structuredClone(gridrushManifest());
  manifest.game.runnable = {
    ...manifest.game.runnable,
    run: ["node", "hostile.ts"],
    env: { HOSTILE_TARGETS: targets(), HOSTILE_MODE: mode, HOSTILE_SKIP_PROBES: "1" },
  };
  return manifest;
}

function hostile(mode: string, secret: string, probes = true, identity?: string): EpisodePlayer {
  return {
    identity,
    runnable: {
      run: ["node", "hostile.ts"],
      env: {
        HOSTILE_TARGETS: targets(),
        HOSTILE_MODE: mode,
        HOSTILE_SCRATCH_BYTES: String(LIMITS.scratchBytes),
        ...(probes ? {} : { HOSTILE_SKIP_PROBES: "1" }),
      },
    },
    cwd: hostileBundle,
    env: { SEAT_SECRET: secret },
  };
}

/** The attempts every hostile runnable makes (besides one per address of the machine). */
const EVERY_PROBE = [
  "read-data-first-admin.txt",
  "read-data-secret.key",
  "read-data-gauntlet.db",
  "read-token-file",
  "read-other-bundle",
  `read-runner-environ-${process.pid}`,
  "read-other-environ",
  "write-own-bundle",
  "write-own-bundle-host-path",
  "write-other-bundle",
  "connect-server",
  "connect-loopback-scan",
  "post-completion",
  "capabilities",
  "no-new-privs",
  "seccomp-personality",
  "seccomp-unshare",
  "host-root-view",
  "host-paths-in-cmdline",
  "write-box-root",
  "write-box/dev",
  "host-ids-in-mountinfo",
];

/** Every PROBE line of a log; the fixture reports each attempt on one. */
function probes(log: string): { name: string; result: string; line: string }[] {
  return log
    .split("\n")
    .filter((l) => l.startsWith("PROBE "))
    .map((line) => {
      const [, name = "", result = ""] = line.split(" ");
      return { name, result, line };
    });
}

/** What only a player tries: the game's socket directory, which every seat's sandbox sees. */
const PLAYER_PROBES = ["write-game-socket-dir", "move-game-socket"];

function expectNothingEscaped(outcome: EpisodeOutcome, logs: string[], also: string[] = []): void {
  for (const log of logs) {
    const found = probes(log);
    // Not vacuous: every attempt ran and reported.
    expect(found.map((p) => p.name)).toEqual(expect.arrayContaining([...EVERY_PROBE, ...also]));
    expect(found.filter((p) => p.result !== "blocked").map((p) => p.line)).toEqual([]);
  }
  const everything = [outcome.gameLog, ...outcome.playerLogs].join("\n");
  for (const value of ALL_CANARIES) expect(everything).not.toContain(value);
  expect(standInConnections).toBe(0);
  for (const dir of [hostileBundle, otherBundle])
    expect(readdirSync(dir).filter((f) => f.startsWith("pwned"))).toEqual([]);
}

/** The probes' loopback scan alone costs seconds of CPU time on a busy host: the runs that
 * probe get room for it; the spin test keeps LIMITS' 3 s. */
const PROBING_LIMITS: SandboxLimits = { ...LIMITS, cpuSeconds: 30 };

/** A job's episode directory, made as the runner makes it (`worker/run-job.ts`). */
async function jobEpisodeDir(): Promise<string> {
  const dir = episodeDir(await instance.jobDir());
  mkdirSync(dir);
  return dir;
}

/** Who the runner says a runnable is (`worker/episode-input.ts`): its compile cache's key. */
const COWORLD_IDENTITY = `coworld ${IDS.coworld} 1 ${"a".repeat(64)} game`;
const policyIdentity = (seat: number) =>
  `policy-version ${IDS.policyVersion}-${seat} ${"a".repeat(64)}`;

function episode(runtime: RuntimeKind, overrides: Partial<RunEpisodeInput>) {
  return gridrushEpisode({
    runtime,
    limits: LIMITS,
    healthTimeoutMs: 60_000,
    deadlineMs: 120_000,
    gameConfig: { width: 5, height: 5, turns: 3, coins: 2, turn_timeout_ms: 50 },
    ...overrides,
  });
}

describe.each(RUNTIMES)("escape suite on the $kind runtime", (runtime) => {
  let absent: string | null = null;
  beforeAll(async () => {
    absent = await runtime.problem();
    if (absent !== null && runtime.required) throw new Error(absent);
  });

  it("players read, write and reach nothing outside their box", async (context) => {
    if (absent !== null) return context.skip();
    const { input, pids } = episode(runtime.kind, {
      limits: PROBING_LIMITS,
      workDir: await jobEpisodeDir(),
      players: [
        hostile("play", CANARIES.seat0, true, policyIdentity(0)),
        hostile("play", CANARIES.seat1, true, policyIdentity(1)),
      ],
      gameConfig: {
        width: 5,
        height: 5,
        turns: 3,
        coins: 2,
        turn_timeout_ms: 50,
        connect_timeout_ms: 60_000,
      },
    });
    const outcome = await runEpisode(input);
    // The game's results count: the seats idled through it.
    expect(outcome.status, outcome.status === "failed" ? outcome.error : "").toBe("completed");
    expectNothingEscaped(outcome, outcome.playerLogs, PLAYER_PROBES);
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("a hostile game reads, writes and reaches nothing outside its box", async (context) => {
    if (absent !== null) return context.skip();
    const manifest: CoworldManifest = structuredClone(gridrushManifest());
    manifest.game.runnable = {
      ...manifest.game.runnable,
      run: ["node", "hostile.ts"],
      env: { HOSTILE_TARGETS: targets() },
    };
    const { input } = episode(runtime.kind, {
      limits: PROBING_LIMITS,
      workDir: await jobEpisodeDir(),
      gameIdentity: COWORLD_IDENTITY,
      manifest,
      coworldDir: hostileBundle,
      secrets: { GAME_SECRET: CANARIES.gameSecret },
      players: [hostile("play", CANARIES.seat0, false), hostile("play", CANARIES.seat1, false)],
    });
    const outcome = await runEpisode(input);
    expect(outcome.status, outcome.status === "failed" ? outcome.error : "").toBe("completed");
    expectNothingEscaped(outcome, [outcome.gameLog]);
  });

  it.for([
    ["forkbomb", "resource_limit", /more than 64 processes/],
    ["memory", "out_of_memory", /memory limit/],
    ["spin", "resource_limit", /CPU time/],
  ] as const)(
    "a player that tries a %s ends the episode with %s, blamed on its seat",
    async ([mode, errorType, message], context) => {
      if (absent !== null) return context.skip();
      const manifest = gridrushManifest();
      const { input, pids } = episode(runtime.kind, {
        players: [bundledPlayer(manifest, "greedy"), hostile(mode, CANARIES.seat1, false)],
        gameConfig: { width: 5, height: 5, turns: 3, coins: 2, connect_timeout_ms: 60_000 },
      });
      const outcome = await runEpisode(input);
      expect(outcome).toMatchObject({
        status: "failed",
        error_type: errorType,
        failed_policy_index: 1,
      });
      if (outcome.status === "failed") expect(outcome.error).toMatch(message);
      expect(outcome.playerLogs[1]).toContain(`LIMIT ${mode} starting`);
      expect(pids().filter(isRunning)).toEqual([]);
    },
  );

  it("a game that floods the episode directory ends the episode with resource_limit", async (context) => {
    if (absent !== null) return context.skip();
    const manifest: CoworldManifest = structuredClone(gridrushManifest());
    manifest.game.runnable = {
      ...manifest.game.runnable,
      run: ["node", "hostile.ts"],
      env: { HOSTILE_TARGETS: targets(), HOSTILE_MODE: "flood", HOSTILE_SKIP_PROBES: "1" },
    };
    const { input } = episode(runtime.kind, { manifest, coworldDir: hostileBundle });
    const outcome = await runEpisode(input);
    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "resource_limit",
      failed_policy_index: null,
    });
    if (outcome.status === "failed") expect(outcome.error).toMatch(/the episode directory/);
  });

  // A policy seated in the coworld's directory shared the game's writable compile cache and
  // rewrote the game's code for every later episode; a user who uploaded another's exact bundle
  // shared that user's cache. Here every program of one episode leaves a mark wherever it may
  // write — the game, and two players run from the same files as the game — and every program
  // of the next episode, other runnables from the same files, looks for one wherever it can see.
  // Then the first game runs again: its own cache is there, read-only.
  it("no writable place is shared by two programs or outlives its episode", async (context) => {
    if (absent !== null) return context.skip();
    const run = async (mode: string, game: string, players: [string, string]) => {
      const { input } = episode(runtime.kind, {
        manifest: hostileGame(mode),
        coworldDir: hostileBundle,
        gameIdentity: game,
        players: [
          hostile(mode, CANARIES.seat0, false, players[0]),
          hostile(mode, CANARIES.seat1, false, players[1]),
        ],
      });
      return runEpisode(input);
    };
    const suffix = randomBytes(4).toString("hex");
    const gameA = `coworld a-${suffix} game`;
    const marked = await run("mark", gameA, [
      `policy-version 1-${suffix}`,
      `policy-version 2-${suffix}`,
    ]);
    expect(marked.status, marked.status === "failed" ? marked.error : "").toBe("completed");
    // Not vacuous: each could write its own places, and said where.
    const gameMarked = /MARKED (\S*)/.exec(marked.gameLog)?.[1]?.split(",").sort();
    expect(gameMarked).toEqual(["/episode", "/run/gauntlet/cache", "/run/gauntlet/net"]);
    for (const log of marked.playerLogs) expect(log).toContain("MARKED /run/gauntlet/cache\n");
    const found = await run("find", `coworld b-${suffix} game`, [
      `policy-version 3-${suffix}`,
      `policy-version 4-${suffix}`,
    ]);
    for (const log of [found.gameLog, ...found.playerLogs]) {
      const seen = probes(log);
      expect(seen.map((p) => p.name)).toEqual(["shared-writable-state"]);
      expect(seen[0]?.result, seen[0]?.line).toBe("blocked");
    }
    const again = await run("mark", gameA, [
      `policy-version 5-${suffix}`,
      `policy-version 6-${suffix}`,
    ]);
    const againMarked = /MARKED (\S*)/.exec(again.gameLog)?.[1]?.split(",").sort();
    expect(againMarked).toEqual(["/episode", "/run/gauntlet/net"]);
  });

  it.for([
    ["sockfill", /into its socket directory/],
    ["inodes", /made more than 4096 files in the episode directory/],
  ] as const)(
    "a game that fills its directories (%s) ends the episode with resource_limit",
    async ([mode, message], context) => {
      if (absent !== null) return context.skip();
      const { input } = episode(runtime.kind, {
        manifest: hostileGame(mode),
        coworldDir: hostileBundle,
        players: [hostile("play", CANARIES.seat0, false), hostile("play", CANARIES.seat1, false)],
      });
      const outcome = await runEpisode(input);
      expect(outcome.gameLog).toContain(`LIMIT ${mode} starting`);
      expect(outcome).toMatchObject({
        status: "failed",
        error_type: "resource_limit",
        failed_policy_index: null,
      });
      if (outcome.status === "failed") expect(outcome.error).toMatch(message);
    },
  );

  // Over a quota the runner removed the program's cache recursively while it still ran, and a
  // folder swapped for a link mid-walk was followed: files outside every sandbox were deleted.
  it("links a game or player plants are never followed: the host's files survive", async (context) => {
    if (absent !== null) return context.skip();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { input } = episode(runtime.kind, {
        manifest: hostileGame("links"),
        coworldDir: hostileBundle,
        players: [hostile("links", CANARIES.seat0, false), hostile("links", CANARIES.seat1, false)],
      });
      const outcome = await runEpisode(input);
      expect(outcome.gameLog).toMatch(/PLANTING in \/\S*episode/);
      expect(readdirSync(hostCanaryDir).sort()).toEqual(
        Array.from({ length: 10 }, (_, i) => `keep-${i}`),
      );
    }
  });

  it("a player that fills its scratch directory stops at the cap", async (context) => {
    if (absent !== null) return context.skip();
    const manifest = gridrushManifest();
    const { input } = episode(runtime.kind, {
      players: [bundledPlayer(manifest, "greedy"), hostile("fill", CANARIES.seat1, false)],
      gameConfig: { width: 5, height: 5, turns: 3, coins: 2, connect_timeout_ms: 3_000 },
    });
    const outcome = await runEpisode(input);
    const fill = probes(outcome.playerLogs[1] ?? "");
    expect(fill.map((p) => p.name)).toEqual(["fill-scratch"]);
    expect(fill[0]?.result, fill[0]?.line).toBe("blocked");
  });

  it("a player that outlives the deadline ends the episode with timeout", async (context) => {
    if (absent !== null) return context.skip();
    const manifest = gridrushManifest();
    const { input, pids } = episode(runtime.kind, {
      players: [bundledPlayer(manifest, "greedy"), hostile("sleep", CANARIES.seat1, false)],
      gameConfig: { width: 5, height: 5, turns: 3, coins: 2, connect_timeout_ms: 60_000 },
      deadlineMs: 4_000,
    });
    const outcome = await runEpisode(input);
    expect(outcome).toMatchObject({ status: "failed", error_type: "timeout" });
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("a player that only waits past its wall clock ends the episode with policy_timeout, blamed on its seat", async (context) => {
    if (absent !== null) return context.skip();
    const manifest = gridrushManifest();
    const { input, pids } = episode(runtime.kind, {
      players: [bundledPlayer(manifest, "greedy"), hostile("sleep", CANARIES.seat1, false)],
      // The game would wait a minute for the seat, the deadline two: the seat's clock ends it.
      gameConfig: { width: 5, height: 5, turns: 3, coins: 2, connect_timeout_ms: 60_000 },
      seatWallClockMs: 3_000,
    });
    const started = performance.now();
    const outcome = await runEpisode(input);
    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "policy_timeout",
      failed_policy_index: 1,
    });
    if (outcome.status === "failed")
      expect(outcome.error).toMatch(/slot 1 was still running after its wall-clock limit of 3 s/);
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("a game that never answers /healthz leaves no player behind, started or not", async (context) => {
    if (absent !== null) return context.skip();
    const manifest: CoworldManifest = structuredClone(gridrushManifest());
    manifest.game.runnable = {
      ...manifest.game.runnable,
      run: ["node", "-e", "setTimeout(() => {}, 60_000)"],
    };
    const { input, events, pids } = episode(runtime.kind, { manifest, healthTimeoutMs: 3_000 });
    const outcome = await runEpisode(input);
    expect(outcome).toMatchObject({ status: "failed", error_type: "game_unhealthy" });
    // The players' sandboxes were made while the game booted (held), and ended unstarted.
    const started = events.flatMap((e) => (e.type === "started" ? [e.runnable] : []));
    expect(started.sort()).toEqual(["game", "player-0", "player-1"]);
    expect(outcome.playerLogs).toEqual(["", ""]);
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("after all that, an ordinary GridRush episode passes on the same runtime", async (context) => {
    if (absent !== null) return context.skip();
    const { input, pids } = episode(runtime.kind, {});
    const outcome = await runEpisode(input);
    expect(outcome.status, outcome.status === "failed" ? outcome.error : "").toBe("completed");
    expect(pids().filter(isRunning)).toEqual([]);
  });
});
