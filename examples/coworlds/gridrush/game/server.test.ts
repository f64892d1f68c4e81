// The game server run by hand, as the README shows: real processes, real sockets.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterEach, describe, expect, it } from "vitest";

const here = join(import.meta.dirname, "..");
const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

function run(
  script: string,
  env: Record<string, string>,
): { child: ChildProcess; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [script], {
    cwd: here,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_COMPILE_CACHE: join(tmpdir(), "gridrush-test-compile-cache"),
      ...env,
    },
    stdio: "ignore",
  });
  started.push(child);
  return { child, exit: new Promise((resolve) => child.once("exit", (code) => resolve(code))) };
}

async function startGame(config: object) {
  const dir = mkdtempSync(join(tmpdir(), "gridrush-"));
  dirs.push(dir);
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
  const port = await freePort();
  const uri = (name: string) => pathToFileURL(join(dir, name)).href;
  const game = run("game/server.ts", {
    COGAME_HOST: "127.0.0.1",
    COGAME_PORT: String(port),
    COGAME_CONFIG_URI: uri("config.json"),
    COGAME_RESULTS_URI: uri("results.json"),
    COGAME_SAVE_REPLAY_URI: uri("replay.jsonl"),
    COGAME_PLAYER_FAILURE_URI: uri("failure.json"),
  });
  for (let attempt = 0; ; attempt += 1) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (attempt > 200) throw new Error("the game never became healthy");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const player = (script: string, slot: number, token: string) =>
    run(script, {
      COWORLD_PLAYER_WS_URL: `ws://127.0.0.1:${port}/player?slot=${slot}&token=${token}`,
    });
  const read = (name: string) =>
    existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : null;
  return { game, player, read };
}

describe("the GridRush game server", () => {
  it("refuses a wrong token, then plays the episode to results and a replay", async () => {
    const { game, player, read } = await startGame({
      tokens: ["tok-a", "tok-b"],
      turns: 20,
      seed: 3,
    });
    expect(await player("players/greedy.ts", 1, "not-the-token").exit).toBe(1);
    const players = [
      player("players/greedy.ts", 0, "tok-a"),
      player("players/random.ts", 1, "tok-b"),
    ];
    expect(await game.exit).toBe(0);
    expect(await Promise.all(players.map((p) => p.exit))).toEqual([0, 0]);
    const results = JSON.parse(read("results.json") ?? "null") as {
      scores: number[];
      winner_slot: number | null;
      turns: number;
    };
    expect(results).toMatchObject({ turns: 20, seed: 3 });
    expect(results.scores).toHaveLength(2);
    const replay = (read("replay.jsonl") ?? "")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(replay.filter((entry) => entry.type === "turn")).toHaveLength(20);
    expect(read("replay.jsonl")).not.toContain("tok-a");
    expect(read("failure.json")).toBeNull();
  });

  it("declares the slot of a player that crashes mid-game, and writes no results", async () => {
    const { game, player, read } = await startGame({ tokens: ["tok-a", "tok-b"], turns: 20 });
    player("players/greedy.ts", 0, "tok-a");
    player("test-fixtures/crasher.ts", 1, "tok-b");
    expect(await game.exit).toBe(0);
    const failure = JSON.parse(read("failure.json") ?? "null") as {
      failed_policy_index: number;
      message: string;
    };
    expect(failure.failed_policy_index).toBe(1);
    expect(failure.message).toMatch(/slot 1 disconnected/);
    expect(read("results.json")).toBeNull();
  });
});
