// The docker runtime. Its arguments are checked everywhere; episodes run only where an engine
// answers `docker info` (not on these build machines).
import { spawnSync } from "node:child_process";

import { afterEach, describe, expect, it } from "vitest";

import { runEpisode } from "../run-episode.ts";
import {
  bundledPlayer,
  gridrushDir,
  gridrushEpisode,
  gridrushManifest,
  removeWorkDirs,
} from "../test-support.ts";
import { dockerNames, dockerRunArgs } from "./docker.ts";

afterEach(removeWorkDirs);

const names = dockerNames("ep1");

describe("dockerRunArgs", () => {
  it("puts the game on the episode's network, publishes its port on loopback only, and mounts the work dir", () => {
    const args = dockerRunArgs(
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
    expect(args.join(" ")).toContain("--name gauntlet-ep1-game --network gauntlet-ep1");
    expect(args.join(" ")).toContain(
      "--network-alias game --publish 127.0.0.1::8080 --volume /tmp/episode:/episode",
    );
    expect(args.slice(-3)).toEqual(["example/game:1", "node", "game.ts"]);
    expect(args).toContain("API_KEY");
    expect(args.join(" ")).not.toContain("secret-value");
  });

  it("gives a player neither the work dir nor a published port", () => {
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
    );
    expect(args.join(" ")).not.toMatch(/--volume|--publish/);
    expect(args).toContain("--cap-drop");
  });
});

const engine = spawnSync("docker", ["info"], { stdio: "ignore" }).status === 0;

describe.skipIf(!engine)("the docker runtime with an engine", () => {
  it("runs gridrush's certification episode from its image", { timeout: 300_000 }, async () => {
    const manifest = gridrushManifest();
    const build = spawnSync(
      "docker",
      ["build", "-t", manifest.game.runnable.image ?? "", gridrushDir],
      { stdio: "inherit" },
    );
    expect(build.status).toBe(0);
    const { input } = gridrushEpisode({
      runtime: "docker",
      deadlineMs: 120_000,
      gameConfig: manifest.certification.game_config,
      players: manifest.certification.players.map((seat) =>
        bundledPlayer(manifest, seat.player_id),
      ),
    });
    const outcome = await runEpisode(input);
    expect(outcome.status).toBe("completed");
    expect(outcome.replay).not.toBeNull();
  });
});
