// The executor on real processes: the example coworld, and games and players that misbehave.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import {
  bundledPlayer,
  gridrushDir,
  gridrushEpisode,
  gridrushManifest,
  inline,
  isRunning,
  removeWorkDirs,
} from "../../testing/episodes.ts";
import { runEpisode } from "./run-episode.ts";
import { EpisodeInputError } from "./types.ts";

afterEach(removeWorkDirs);

const crasher = { runnable: { run: ["node", "test-fixtures/crasher.ts"] }, cwd: gridrushDir };
/** Connects to nothing and lives until killed. */
const idle = { runnable: inline("setInterval(() => {}, 1000)"), cwd: gridrushDir };

describe("runEpisode", () => {
  it("runs gridrush's certification episode to valid results, a replay and logs", async () => {
    const manifest = gridrushManifest();
    const { input, pids } = gridrushEpisode({
      gameConfig: manifest.certification.game_config,
      players: manifest.certification.players.map((seat) =>
        bundledPlayer(manifest, seat.player_id),
      ),
    });
    const outcome = await runEpisode(input);

    expect(outcome.status).toBe("completed");
    if (outcome.status !== "completed") return;
    expect(outcome.results).toMatchObject({ turns: 30, seed: 7 });
    expect(outcome.results.scores).toHaveLength(3);
    expect(outcome.replay?.toString("utf8")).toContain('"type":"header"');
    expect(outcome.gameLog).toContain("finished: scores");
    expect(outcome.playerLogs).toHaveLength(3);
    outcome.playerLogs.forEach((log) => expect(log).toContain("episode finished"));
    expect(outcome.timings.totalMs).toBeGreaterThanOrEqual(
      outcome.timings.startMs + outcome.timings.healthyMs + outcome.timings.gameMs,
    );

    const config = JSON.parse(readFileSync(join(input.workDir, "config.json"), "utf8")) as {
      tokens: string[];
      players: { name: string }[];
    };
    expect(new Set(config.tokens).size).toBe(3);
    expect(config.players.map((p) => p.name)).toEqual(["Greedy", "Wanderer", "Random"]);
    expect(pids()).toHaveLength(4);
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("fails with results_invalid when the results break results_schema", async () => {
    const manifest = gridrushManifest();
    const schema = structuredClone(manifest.game.results_schema) as {
      properties: { turns: { minimum: number } };
    };
    schema.properties.turns.minimum = 1000;
    const { input, pids } = gridrushEpisode({
      manifest: { ...manifest, game: { ...manifest.game, results_schema: schema } },
    });
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "results_invalid",
      failed_policy_index: null,
    });
    if (outcome.status === "failed") expect(outcome.error).toContain("/turns");
    expect(outcome.replay).not.toBeNull();
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("fails with player_failure naming the slot of a player that crashes mid-game", async () => {
    const manifest = gridrushManifest();
    const { input, pids } = gridrushEpisode({
      players: [bundledPlayer(manifest, "greedy"), crasher, bundledPlayer(manifest, "random")],
    });
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "player_failure",
      failed_policy_index: 1,
    });
    expect(outcome.playerLogs[1]).toContain("crashing at turn 3");
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("fails at once, with its exit and its log's last lines, when a player exits before it connects", async () => {
    const manifest = gridrushManifest();
    const missing = { runnable: { run: ["node", "players/no-such-player.ts"] }, cwd: gridrushDir };
    const { input, pids } = gridrushEpisode({
      // The game would wait 10 s before declaring the seat failed.
      gameConfig: { connect_timeout_ms: 10_000 },
      players: [bundledPlayer(manifest, "greedy"), missing],
    });
    const started = performance.now();
    const outcome = await runEpisode(input);

    expect(performance.now() - started).toBeLessThan(8_000);
    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "player_failure",
      failed_policy_index: 1,
    });
    if (outcome.status === "failed") {
      expect(outcome.error).toContain("the player in slot 1 exited with code 1");
      expect(outcome.error).toContain("no-such-player.ts");
    }
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it.for([0, 1])(
    "fails with policy_timeout naming the idle player's slot (%i), not the one waiting with the game",
    async (slot) => {
      const manifest = gridrushManifest();
      const players = [bundledPlayer(manifest, "greedy"), bundledPlayer(manifest, "greedy")];
      players[slot] = idle;
      const { input, pids } = gridrushEpisode({
        // The game would wait 60 s for the idle seat to connect; the other seat waits with it.
        gameConfig: { connect_timeout_ms: 60_000 },
        players,
        seatWallClockMs: 1_500,
      });
      const outcome = await runEpisode(input);

      expect(outcome).toMatchObject({
        status: "failed",
        error_type: "policy_timeout",
        failed_policy_index: slot,
      });
      expect(pids().filter(isRunning)).toEqual([]);
    },
  );

  it("an episode that ends within the players' wall clock completes", async () => {
    const { input } = gridrushEpisode({
      gameConfig: { width: 5, height: 5, turns: 3, coins: 2 },
      seatWallClockMs: 60_000,
    });
    const outcome = await runEpisode(input);
    expect(outcome.status, outcome.status === "failed" ? outcome.error : "").toBe("completed");
  });

  it("fails with game_unhealthy when /healthz never answers within the health timeout", async () => {
    const manifest = gridrushManifest();
    const silent = {
      ...manifest,
      game: {
        ...manifest.game,
        runnable: { type: "game" as const, ...inline("setInterval(() => {}, 1000)") },
      },
    };
    const { input, pids, events } = gridrushEpisode({ manifest: silent, healthTimeoutMs: 400 });
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({ status: "failed", error_type: "game_unhealthy" });
    if (outcome.status === "failed")
      expect(outcome.error).toContain("within 400 ms (last: ECONNREFUSED)");
    expect(
      events.filter((e) => e.type === "started").map((e) => e.type === "started" && e.runnable),
    ).toEqual(["game"]);
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("fails with game_unhealthy at once when the game exits before it is healthy", async () => {
    const manifest = gridrushManifest();
    const broken = {
      ...manifest,
      game: {
        ...manifest.game,
        runnable: {
          type: "game" as const,
          ...inline("console.error('no config for me'); process.exit(7)"),
        },
      },
    };
    // A health timeout and a deadline no test would wait for: only the exit can end this episode.
    const { input, pids } = gridrushEpisode({
      manifest: broken,
      healthTimeoutMs: 3_600_000,
      deadlineMs: 3_600_000,
    });
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({ status: "failed", error_type: "game_unhealthy" });
    if (outcome.status === "failed") expect(outcome.error).toContain("exited with code 7");
    expect(outcome.gameLog).toContain("no config for me");
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("fails with game_crashed when the game dies mid-episode without results", async () => {
    const manifest = gridrushManifest();
    const dying = {
      ...manifest,
      game: {
        ...manifest.game,
        runnable: {
          type: "game" as const,
          ...inline("import('./game/server.ts'); setTimeout(() => process.exit(5), 300)"),
        },
      },
    };
    const { input, pids } = gridrushEpisode({
      manifest: dying,
      players: [bundledPlayer(manifest, "greedy"), idle],
      playerGraceMs: 100,
      killGraceMs: 100,
    });
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "game_crashed",
      failed_policy_index: null,
    });
    if (outcome.status === "failed") expect(outcome.error).toContain("exited with code 5");
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("fails as infrastructure, not the game's fault, when another program took the game's port (process runtime)", async () => {
    const manifest = gridrushManifest();
    // Another program binds the port the runner chose before the game does: the game's own
    // listen then fails with EADDRINUSE, as when two runners on one host race for a port.
    const raced = {
      ...manifest,
      game: {
        ...manifest.game,
        runnable: {
          type: "game" as const,
          ...inline(
            "import('node:net').then(({ createServer }) => createServer().listen(Number(process.env.COGAME_PORT), '127.0.0.1', () => import('./game/server.ts')))",
          ),
        },
      },
    };
    const { input, pids } = gridrushEpisode({ manifest: raced, healthTimeoutMs: 3_600_000 });
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "infrastructure",
      failed_policy_index: null,
    });
    expect(outcome.gameLog).toContain("EADDRINUSE");
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("refuses a roster the config schema does not allow, before starting anything", async () => {
    const manifest = gridrushManifest();
    const { input, events } = gridrushEpisode({ players: [bundledPlayer(manifest, "greedy")] });
    await expect(runEpisode(input)).rejects.toThrow(EpisodeInputError);
    await expect(runEpisode(input)).rejects.toThrow("1 players; gridrush seats 2 to 4");
    expect(events).toEqual([]);
  });
});
