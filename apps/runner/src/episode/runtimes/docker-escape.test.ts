// The docker runtime's escape suite, against a real engine: hostile runnables (a player, a game,
// a coworld's commissioner) try to read the host's files, reach the host, the server and any other address, gain
// privileges, fork-bomb, fill their scratch, exceed their memory and outlive their time. Each
// attempt fails — the fixture prints what it managed — the episode ends with the documented
// reason, nothing of it is left behind, and the runtime keeps working.
import { randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { CoworldManifest } from "@gauntlet/core";

import {
  buildHostileImage,
  dockerEngineProblem,
  HOSTILE_IMAGE,
  leftovers,
} from "../../../testing/docker.ts";
import {
  bundledPlayer,
  gridrushDir,
  gridrushEpisode,
  gridrushManifest,
  newWorkDir,
  removeWorkDirs,
} from "../../../testing/episodes.ts";
import type { CommissionerReport } from "../../commissioner/commissioner-queue.ts";
import { commissionerDir, runCommissioner } from "../../commissioner/run-commissioner.ts";
import { BundleCache } from "../../worker/bundle-cache.ts";
import { createLog } from "../../worker/log.ts";
import { Redactor } from "../../worker/redactor.ts";
import { runEpisode } from "../run-episode.ts";

const problem = dockerEngineProblem();
if (problem !== null) console.warn(`docker escape suite skipped: ${problem}`);

const scratchBytes = 16 << 20;
const pids = 48;

/** Stands in for the server: every address of this machine, any port it took. */
let server: Server;
let connections = 0;
let targets: { read: string[]; connect: string[] };
let secretPath: string;

beforeAll(async () => {
  if (problem !== null) return;
  buildHostileImage();
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const hostAddresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i && i.family === "IPv4" ? [i.address] : []));
  secretPath = join(newWorkDir(), "secret.key");
  writeFileSync(secretPath, `secret-${randomBytes(8).toString("hex")}`);
  targets = {
    read: [secretPath, `/proc/${process.pid}/environ`, join(gridrushDir, "coworld_manifest.json")],
    // The server on each of the host's addresses (its loopback, docker0's), the episode
    // network's would-be gateway, and an address elsewhere (unroutable: nothing leaves).
    connect: [...new Set([...hostAddresses, "172.17.0.1", "172.18.0.1", "10.255.255.1"])].map(
      (host) => `${host}:${port}`,
    ),
  };
}, 300_000);

afterAll(() => server?.close());
afterEach(removeWorkDirs);

function hostile(
  role: string,
  extraEnv: Record<string, string> = {},
): { image: string; run: string[]; env: Record<string, string> } {
  return {
    image: HOSTILE_IMAGE,
    run: ["node", "/fixtures/hostile.ts"],
    env: { HOSTILE_ROLE: role, HOSTILE_TARGETS: JSON.stringify(targets), ...extraEnv },
  };
}

/** The fixture's lines: attempt → what happened. */
function attempts(log: string): Map<string, string> {
  const lines = [...log.matchAll(/^ESCAPE (.+?): (.*)$/gm)];
  return new Map(lines.map((m) => [m[1] ?? "", m[2] ?? ""]));
}

function expectEverythingRefused(tried: Map<string, string>): void {
  expect(tried.get("env names")).not.toMatch(/GAUNTLET|TOKEN|DATABASE|SECRET/);
  expect(tried.get("read /var/run/docker.sock")).toBe("ENOENT");
  for (const path of targets.read) expect(tried.get(`read ${path}`)).toBe("ENOENT");
  expect(tried.get("read /etc/shadow")).toBe("ENOENT");
  for (const target of targets.connect)
    expect(tried.get(`connect ${target}`)).toMatch(
      /^(EHOSTUNREACH|ENETUNREACH|ECONNREFUSED|TIMEOUT)$/,
    );
  for (const path of ["/hostile", "/coworld/hostile", "/home/gauntlet/hostile"])
    expect(tried.get(`write ${path}`)).toMatch(/^(EROFS|EACCES)$/);
  const filled = /^ENOSPC after (\d+) MiB$/.exec(tried.get("fill scratch") ?? "");
  expect(Number(filled?.[1])).toBeLessThanOrEqual(scratchBytes >> 20);
  const forked = /^EAGAIN after (\d+) processes$/.exec(tried.get("fork bomb") ?? "");
  expect(Number(forked?.[1])).toBeLessThan(pids);
  expect(tried.get("uid")).toBe(process.getuid?.() === 0 ? "65532" : String(process.getuid?.()));
  expect(tried.get("setuid 0")).toBe("EPERM");
}

describe.skipIf(problem !== null)("the docker runtime against hostile runnables", () => {
  const limits = { scratchBytes, pids, memoryBytes: 256 << 20 };

  it(
    "a hostile player reaches nothing, uploads only to its own address, and the episode completes",
    { timeout: 180_000 },
    async () => {
      const manifest = gridrushManifest();
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: limits,
        gameConfig: { width: 7, height: 7, turns: 10, coins: 4, connect_timeout_ms: 60_000 },
        players: [{ runnable: hostile("player"), cwd: "/" }, bundledPlayer(manifest, "greedy")],
      });
      const outcome = await runEpisode(input);
      const tried = attempts(outcome.playerLogs[0] ?? "");
      expect(outcome.status, outcome.playerLogs[0]).toBe("completed");
      expectEverythingRefused(tried);
      expect(tried.get("upload own")).toBe("201");
      expect(tried.get("upload other seat")).toBe("404");
      expect(outcome.playerArtifacts[0]?.toString()).toMatch(
        /^artifact of http:\/\/relay:9000\/artifacts\/0\//,
      );
      expect(outcome.playerArtifacts[1]).toBeNull();
      expect(connections).toBe(0);
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  it(
    "a hostile game reaches nothing and cannot make the runner read a host file as its replay",
    { timeout: 180_000 },
    async () => {
      const manifest = gridrushManifest();
      const game: CoworldManifest = {
        ...manifest,
        game: { ...manifest.game, runnable: { type: "game", ...hostile("game") } },
      };
      // Players that wait: this game is no game they could reach, and a player that quits
      // while the game runs would end the episode before the game's attempts are done.
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: limits,
        manifest,
        players: [
          { runnable: hostile("hang"), cwd: "/" },
          { runnable: hostile("hang"), cwd: "/" },
        ],
      });
      input.manifest = game;
      const outcome = await runEpisode(input);
      const tried = attempts(outcome.gameLog);
      expectEverythingRefused(tried);
      expect(tried.get("replay")).toBe(`a symbolic link to ${secretPath}`);
      // No other account of the host could have written the game's results there.
      expect(tried.get("episode dir")).toBe(`700 owned by ${tried.get("uid") ?? "?"}`);
      expect(outcome.status).toBe("completed");
      expect(outcome.replay).toBeNull();
      expect(connections).toBe(0);
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  it(
    "a hostile commissioner reaches nothing, within the runner's limits, and nothing of it is left",
    { timeout: 180_000 },
    async () => {
      const jobDir = newWorkDir();
      const redactor = new Redactor();
      const reports: CommissionerReport[] = [];
      const outcome = await runCommissioner(
        {
          queue: { lease: async () => null, end: async (_, report) => void reports.push(report) },
          cache: new BundleCache(join(jobDir, "bundles"), () => Promise.reject(new Error("none"))),
          jobDir,
          runtime: "docker",
          // The runner's own limits (--container-*), not the defaults: what the checks expect.
          containerLimits: limits,
          log: createLog({ format: "text", redactor, write: () => {} }),
          redactor,
        },
        {
          job_id: randomUUID(),
          lease_token: "lease",
          purpose: "round",
          league_id: "league",
          coworld: { id: "coworld", name: "hostile", version: "0.1.0", bundle_sha256: null },
          runnable_id: "hostile",
          runnable: hostile("commissioner"),
          // Never reached: the commissioner has no /round.
          relay_url: "ws://127.0.0.1:9/relay",
          startup_timeout_ms: 60_000,
          deadline_ms: 60_000,
        },
        new AbortController().signal,
      );
      const log = reports[0]?.log ?? "";
      expect(outcome, log).toBe("crashed");
      const tried = attempts(log);
      expectEverythingRefused(tried);
      expect(tried.get("upload")).toBe("no address");
      expect(connections).toBe(0);
      expect(leftovers(commissionerDir(jobDir))).toEqual([]);
    },
  );

  it(
    "a player over its memory limit ends the episode as out_of_memory, blamed on its seat",
    { timeout: 180_000 },
    async () => {
      const manifest = gridrushManifest();
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: { ...limits, memoryBytes: 128 << 20 },
        gameConfig: { width: 7, height: 7, turns: 400, coins: 4 },
        players: [bundledPlayer(manifest, "greedy"), { runnable: hostile("memory"), cwd: "/" }],
      });
      const outcome = await runEpisode(input);
      expect(outcome.status).toBe("failed");
      if (outcome.status !== "failed") return;
      expect(outcome.error_type).toBe("out_of_memory");
      expect(outcome.failed_policy_index).toBe(1);
      expect(outcome.playerLogs[1]).toMatch(/ESCAPE memory: holding \d+ MiB/);
      expect(outcome.playerLogs[1]).not.toMatch(/holding (1[3-9]\d|[2-9]\d\d) MiB/);
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  it(
    "players reach the game, and neither each other nor the host: each seat has a network of its own",
    { timeout: 180_000 },
    async () => {
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: limits,
        gameConfig: { width: 7, height: 7, turns: 10, coins: 4, connect_timeout_ms: 60_000 },
        players: [
          { runnable: hostile("player"), cwd: "/" },
          { runnable: hostile("player"), cwd: "/" },
        ],
      });
      const outcome = await runEpisode(input);
      expect(outcome.status, outcome.playerLogs.join("\n")).toBe("completed");
      for (const log of outcome.playerLogs) {
        const tried = attempts(log);
        expect(tried.get("peers"), log).toBe("none");
        expect(tried.get("upload own")).toBe("201");
        expectEverythingRefused(tried);
      }
      expect(connections).toBe(0);
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  it(
    "a player past its CPU time ends the episode as resource_limit, blamed on its seat",
    { timeout: 180_000 },
    async () => {
      const manifest = gridrushManifest();
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: { ...limits, cpuSeconds: 3 },
        gameConfig: { width: 7, height: 7, turns: 400, coins: 4, connect_timeout_ms: 60_000 },
        players: [bundledPlayer(manifest, "greedy"), { runnable: hostile("spin"), cwd: "/" }],
      });
      const outcome = await runEpisode(input);
      expect(outcome.status).toBe("failed");
      if (outcome.status !== "failed") return;
      expect(outcome.error_type, outcome.error).toBe("resource_limit");
      expect(outcome.error).toBe("the player in slot 1 used more than its 3 s of CPU time");
      expect(outcome.failed_policy_index).toBe(1);
      expect(outcome.playerLogs[1]).toContain("ESCAPE spin: burning CPU");
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  it(
    "a game that never ends is stopped at the deadline as timeout, and nothing of it is left",
    { timeout: 180_000 },
    async () => {
      const manifest = gridrushManifest();
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: limits,
        deadlineMs: 10_000,
        manifest: {
          ...manifest,
          game: { ...manifest.game, runnable: { type: "game", ...hostile("hang") } },
        },
        // Players that wait for it (a player that quits while the game runs ends the episode
        // at once, blamed on its seat: not what this test is about).
        players: [
          { runnable: hostile("hang"), cwd: "/" },
          { runnable: hostile("hang"), cwd: "/" },
        ],
      });
      const outcome = await runEpisode(input);
      expect(outcome.status).toBe("failed");
      if (outcome.status !== "failed") return;
      expect(outcome.error_type).toBe("timeout");
      expect(outcome.gameLog).toContain("ESCAPE hang: answering /healthz, never ending");
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  // The game's episode directory is a host directory: it had no quota on docker at all.
  it(
    "a game that floods the episode directory with empty files ends the episode as resource_limit",
    { timeout: 180_000 },
    async () => {
      const manifest = gridrushManifest();
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: limits,
        deadlineMs: 60_000,
        manifest: {
          ...manifest,
          game: { ...manifest.game, runnable: { type: "game", ...hostile("inodes") } },
        },
        players: [
          { runnable: hostile("hang"), cwd: "/" },
          { runnable: hostile("hang"), cwd: "/" },
        ],
      });
      const outcome = await runEpisode(input);
      expect(outcome).toMatchObject({
        status: "failed",
        error_type: "resource_limit",
        failed_policy_index: null,
      });
      if (outcome.status === "failed")
        expect(outcome.error).toMatch(/made more than 4096 files in the episode directory/);
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  it(
    "players that only wait are stopped at their wall clock as policy_timeout, long before the deadline",
    { timeout: 180_000 },
    async () => {
      const { input } = gridrushEpisode({
        runtime: "docker",
        containerLimits: limits,
        deadlineMs: 120_000,
        seatWallClockMs: 5_000,
        gameConfig: { width: 5, height: 5, turns: 3, coins: 2, connect_timeout_ms: 100_000 },
        players: [
          { runnable: hostile("hang"), cwd: "/" },
          { runnable: hostile("hang"), cwd: "/" },
        ],
      });
      const started = performance.now();
      const outcome = await runEpisode(input);
      expect(performance.now() - started).toBeLessThan(90_000);
      expect(outcome.status).toBe("failed");
      if (outcome.status !== "failed") return;
      expect(outcome.error_type).toBe("policy_timeout");
      // Docker's players reach the game directly: the runner cannot tell which one it waited
      // for, so with both still running it names neither and lists them.
      expect(outcome.failed_policy_index).toBeNull();
      expect(outcome.error).toMatch(
        /slots 0, 1 were still running after their wall-clock limit of 5 s/,
      );
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  it(
    "after all of that, an ordinary gridrush episode still completes on the same engine",
    { timeout: 180_000 },
    async () => {
      const { input } = gridrushEpisode({ runtime: "docker" });
      const outcome = await runEpisode(input);
      expect(outcome.status, outcome.gameLog).toBe("completed");
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );
});
