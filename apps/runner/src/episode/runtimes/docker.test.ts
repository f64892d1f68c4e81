// The docker runtime: its arguments everywhere; episodes against a real engine where one answers
// (tooling/scripts/ensure-docker.sh starts one when it can, as CI does), else skipped with why.
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import {
  buildGridrushImage,
  dockerEngineProblem,
  dockerSync,
  leftovers,
} from "../../../testing/docker.ts";
import {
  bundledPlayer,
  gridrushEpisode,
  gridrushManifest,
  newWorkDir,
  removeWorkDirs,
} from "../../../testing/episodes.ts";
import { commissionerDir } from "../../commissioner/run-commissioner.ts";
import { episodeDir } from "../../worker/episode-input.ts";
import { sweepDeadRunners } from "../../worker/instance-dir.ts";
import { runEpisode } from "../run-episode.ts";
import { dockerNames, dockerRunArgs, relayRunArgs } from "./docker.ts";

afterEach(removeWorkDirs);

const names = dockerNames("ep1");

describe("dockerRunArgs", () => {
  const game = dockerRunArgs(
    {
      name: "game",
      image: "example/game:1",
      run: ["node", "game.ts"],
      cwd: "/",
      env: { COGAME_PORT: "8080", API_KEY: "secret-value" },
      mountsWorkDir: true,
    },
    names,
    "/tmp/episode",
  );

  it("puts the game on the episode's network by the name `game`, with the work dir and no published port", () => {
    expect(game.join(" ")).toContain("--name gauntlet-ep1-game --network gauntlet-ep1");
    expect(game.join(" ")).toContain("--network-alias game --volume /tmp/episode:/episode");
    expect(game).not.toContain("--publish");
    expect(game.slice(-3)).toEqual(["example/game:1", "node", "game.ts"]);
    expect(game).toContain("API_KEY");
    expect(game.join(" ")).not.toContain("secret-value");
  });

  it("confines every container: read-only, no capabilities, no new privileges, a non-root user, limits", () => {
    const text = game.join(" ");
    for (const part of [
      "--read-only",
      "--cap-drop ALL",
      "--security-opt no-new-privileges",
      "--user 65532:65532",
      "--pids-limit 128",
      `--memory ${512 << 20} --memory-swap ${512 << 20}`,
      "--cpus 1",
      "--ulimit cpu=600:605",
      "--log-driver none",
      `--tmpfs /tmp:rw,nosuid,nodev,noexec,size=${64 << 20},mode=1777`,
    ])
      expect(text).toContain(part);
  });

  it("puts a player on its seat's own network, not the episode's", () => {
    const args = dockerRunArgs(
      { name: "player-1", image: "example/p:1", cwd: "/", env: {}, mountsWorkDir: false },
      names,
      "/tmp/episode",
    );
    const networks = args.flatMap((arg, i) => (arg === "--network" ? [args[i + 1]] : []));
    expect(networks).toEqual(["gauntlet-ep1-player-1-net"]);
    expect(args).not.toContain("--network-alias");
  });

  it("puts a commissioner (`game` without the work dir) on the episode's network by the name `game`", () => {
    const args = dockerRunArgs(
      { name: "game", image: "example/c:1", cwd: "/", env: {}, mountsWorkDir: false },
      names,
      "/tmp/commissioner",
    );
    const networks = args.flatMap((arg, i) => (arg === "--network" ? [args[i + 1]] : []));
    expect(networks).toEqual(["gauntlet-ep1"]);
    expect(args.join(" ")).toContain("--network-alias game");
    expect(args.join(" ")).not.toMatch(/--volume|--publish/);
  });

  it("gives a player neither the work dir nor a published port, and takes limits from the caller", () => {
    const args = dockerRunArgs(
      {
        name: "player-0",
        image: "example/p:1",
        cwd: "/",
        env: { COWORLD_PLAYER_WS_URL: "ws://game:8080/player" },
        mountsWorkDir: false,
      },
      names,
      "/tmp/episode",
      {
        memoryBytes: 1 << 26,
        pids: 16,
        cpus: 0.5,
        cpuSeconds: 7,
        scratchBytes: 1 << 20,
        outputBytes: 1 << 20,
        user: "2000:2000",
      },
    );
    expect(args.join(" ")).not.toMatch(/--volume|--publish/);
    expect(args.join(" ")).toContain(
      "--pids-limit 16 --memory 67108864 --memory-swap 67108864 --cpus 0.5",
    );
    expect(args.join(" ")).toContain("--user 2000:2000");
    expect(args.join(" ")).toContain("--ulimit cpu=7:12");
  });

  it("runs the relay from the base image with only the socket directory and its own script", () => {
    const args = relayRunArgs(names, "/tmp/s/sockets", "gauntlet/node-base:24.0.0", "/tmp/episode");
    const volumes = args.flatMap((arg, i) => (arg === "--volume" ? [args[i + 1]] : []));
    expect(volumes).toEqual([
      "/tmp/s/sockets:/sockets",
      expect.stringMatching(/docker-relay\.ts:\/relay\/relay\.ts:ro$/),
    ]);
    expect(args.slice(-3)).toEqual(["gauntlet/node-base:24.0.0", "node", "/relay/relay.ts"]);
  });
});

const problem = dockerEngineProblem();
if (problem !== null) console.warn(`docker runtime tests skipped: ${problem}`);

describe.skipIf(problem !== null)("the docker runtime with an engine", () => {
  it(
    "plays gridrush's certification episode to completed from its offline image, and leaves nothing",
    { timeout: 300_000 },
    async () => {
      buildGridrushImage();
      const manifest = gridrushManifest();
      const { input } = gridrushEpisode({
        runtime: "docker",
        deadlineMs: 120_000,
        gameConfig: manifest.certification.game_config,
        players: manifest.certification.players.map((seat) =>
          bundledPlayer(manifest, seat.player_id),
        ),
      });
      const outcome = await runEpisode(input);
      expect(outcome.status, outcome.gameLog).toBe("completed");
      expect(outcome.replay).not.toBeNull();
      expect(leftovers(input.workDir)).toEqual([]);
    },
  );

  // A commissioner's box is labelled with a directory of its own in its job's: one the sweep
  // did not look for, so a hanging commissioner of a killed runner ran on forever.
  it.each([
    ["an episode's", episodeDir],
    ["a commissioner's", commissionerDir],
  ])(
    "a killed runner's containers and network (%s) are removed by the next runner's sweep",
    { timeout: 120_000 },
    async (_, boxDir) => {
      const workDir = newWorkDir();
      const runnerDir = join(workDir, "runners", "dead");
      const jobDir = join(runnerDir, "jobs", "job-1-1");
      const episode = boxDir(jobDir);
      await mkdir(episode, { recursive: true });
      const dead = spawn("true");
      await new Promise((resolve) => dead.once("exit", resolve));
      await writeFile(
        join(runnerDir, "runner.json"),
        JSON.stringify({ pid: dead.pid, start_time: 1, host: hostname(), runtime: "docker" }),
      );
      // What a runner killed mid-episode leaves: the episode's network and a running container.
      const labels = [
        "--label",
        "org.gauntlet.runner=episode",
        "--label",
        `org.gauntlet.work-dir=${episode}`,
      ];
      const network = `gauntlet-sweep-${process.pid}`;
      dockerSync(["network", "create", "--internal", ...labels, network]);
      dockerSync([
        "run",
        "-d",
        ...labels,
        "--network",
        network,
        buildGridrushImage(),
        "node",
        "-e",
        "setInterval(() => {}, 1000)",
      ]);
      expect(leftovers(episode)).toHaveLength(2);

      await sweepDeadRunners(workDir);

      expect(leftovers(episode)).toEqual([]);
    },
  );
});
