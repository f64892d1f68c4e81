// Whatever happens, every process an episode started ends with it, and the game's secrets
// reach the game only.
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
import type { EpisodeEvent } from "./types.ts";

afterEach(removeWorkDirs);

/**
 * A player that never connects, shrugs off SIGTERM and leaves a grandchild in its process
 * group; it prints the grandchild's pid so that the test can look for it afterwards.
 */
const stubborn = {
  runnable: inline(
    "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });" +
      "console.log('grandchild ' + c.pid); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);",
  ),
  cwd: gridrushDir,
};

/** Plays (stays put every turn) but never leaves after the end, and ignores SIGTERM. */
const lingerer = {
  runnable: inline(
    "const ws = new WebSocket(process.env.COWORLD_PLAYER_WS_URL);" +
      "ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'turn') ws.send(JSON.stringify({ type: 'move', turn: m.turn, move: 'stay' })); };" +
      "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);",
  ),
  cwd: gridrushDir,
};

/** Connects to nothing and lives until killed. */
const idle = { runnable: inline("setInterval(() => {}, 1000)"), cwd: gridrushDir };

function grandchildPid(log: string | undefined): number {
  const match = /grandchild (\d+)/.exec(log ?? "");
  if (match?.[1] === undefined) throw new Error(`no grandchild pid in ${JSON.stringify(log)}`);
  return Number(match[1]);
}

describe("runEpisode ends what it started", () => {
  it("kills a hanging player, its group and the game at the deadline", async () => {
    const manifest = gridrushManifest();
    const { input, pids, events } = gridrushEpisode({
      gameConfig: { turns: 10, connect_timeout_ms: 600_000 },
      players: [bundledPlayer(manifest, "greedy"), stubborn],
      deadlineMs: 1_500,
      killGraceMs: 200,
    });
    // Nothing else would end this episode: that it ends at all is the deadline at work
    // (how close to the deadline is a figure of bench/episodes, not a test).
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({
      status: "failed",
      error_type: "timeout",
      failed_policy_index: null,
    });
    // The player shrugs off SIGTERM: it was killed.
    expect(events).toContainEqual(
      expect.objectContaining({ type: "exited", runnable: "player-1", signal: "SIGKILL" }),
    );
    const grandchild = grandchildPid(outcome.playerLogs[1]);
    expect([...pids(), grandchild].filter(isRunning)).toEqual([]);
  });

  it("completes, then kills a player that lingers after the game has ended", async () => {
    const manifest = gridrushManifest();
    const { input, pids, events } = gridrushEpisode({
      gameConfig: { turns: 10 },
      players: [bundledPlayer(manifest, "greedy"), lingerer],
      playerGraceMs: 200,
      killGraceMs: 200,
    });
    const outcome = await runEpisode(input);

    expect(outcome.status).toBe("completed");
    expect(events).toContainEqual(
      expect.objectContaining({ type: "exited", runnable: "player-1", signal: "SIGKILL" }),
    );
    expect(pids().filter(isRunning)).toEqual([]);
  });

  it("cancels on the caller's signal and ends everything", async () => {
    const manifest = gridrushManifest();
    const controller = new AbortController();
    const events: EpisodeEvent[] = [];
    const { input } = gridrushEpisode({
      players: [bundledPlayer(manifest, "greedy"), idle],
      gameConfig: { connect_timeout_ms: 60_000 },
      signal: controller.signal,
      killGraceMs: 200,
      onEvent: (event) => {
        events.push(event);
        if (event.type === "started" && event.runnable === "player-1")
          setTimeout(() => controller.abort(), 50);
      },
    });
    const outcome = await runEpisode(input);

    expect(outcome).toMatchObject({ status: "failed", error_type: "cancelled" });
    const started = events.flatMap((e) => (e.type === "started" && e.pid !== null ? [e.pid] : []));
    expect(started).toHaveLength(3);
    expect(started.filter(isRunning)).toEqual([]);
  });

  it("gives the coworld's secrets to the game only, in an environment without the runner's", async () => {
    process.env.GAUNTLET_RUNNER_ONLY = "runner-private";
    const secret = "s3cret-value-8c1f";
    const manifest = gridrushManifest();
    const dumpingGame = {
      type: "game" as const,
      ...inline(
        "fs.writeFileSync(path.join(path.dirname(url.fileURLToPath(process.env.COGAME_CONFIG_URI)), 'game-env.json'), JSON.stringify(process.env)); import('./game/server.ts');",
      ),
    };
    const showingPlayer = {
      ...bundledPlayer(manifest, "random"),
      runnable: inline(
        "console.log('env names: ' + Object.keys(process.env).sort().join(',')); import('./players/greedy.ts');",
      ),
    };
    const { input, events } = gridrushEpisode({
      manifest: { ...manifest, game: { ...manifest.game, runnable: dumpingGame } },
      players: [bundledPlayer(manifest, "greedy"), showingPlayer],
      secrets: { GRIDRUSH_API_KEY: secret },
    });
    try {
      const outcome = await runEpisode(input);
      expect(outcome.status).toBe("completed");

      const gameEnv = JSON.parse(
        readFileSync(join(input.workDir, "game-env.json"), "utf8"),
      ) as Record<string, string>;
      expect(gameEnv.GRIDRUSH_API_KEY).toBe(secret);
      expect(Object.keys(gameEnv).sort()).toEqual([
        "COGAME_CONFIG_URI",
        "COGAME_HOST",
        "COGAME_PLAYER_FAILURE_URI",
        "COGAME_PORT",
        "COGAME_RESULTS_URI",
        "COGAME_SAVE_REPLAY_URI",
        "GRIDRUSH_API_KEY",
        "NODE_COMPILE_CACHE",
        "PATH",
      ]);
      // The contract's two addresses (its game socket, its artifact upload) and nothing of the runner's.
      expect(outcome.playerLogs[1]).toContain(
        "env names: COWORLD_PLAYER_ARTIFACT_UPLOAD_URL,COWORLD_PLAYER_WS_URL,NODE_COMPILE_CACHE,PATH\n",
      );
      const written = JSON.stringify([
        events,
        outcome.gameLog,
        outcome.playerLogs,
        outcome.status === "failed" ? outcome.error : "",
      ]);
      expect(written).not.toContain(secret);
      expect(written).toContain("GRIDRUSH_API_KEY");
    } finally {
      delete process.env.GAUNTLET_RUNNER_ONLY;
    }
  });
});
