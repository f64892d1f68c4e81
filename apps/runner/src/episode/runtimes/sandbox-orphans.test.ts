// A runner killed with SIGKILL mid-episode leaves no process of that episode's sandboxes
// behind: not the booting game's, not a player's box held until the game answers, not one
// playing. (The next runner's sweep ends process groups; a sandbox must not wait for it.)
// Without bubblewrap's --die-with-parent both fail: the sandboxes stay, reparented.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { describe, expect, it } from "vitest";

import { allProcesses, procInfo } from "../../worker/proc.ts";
import { sandboxProblem } from "./sandbox-probe.ts";

const problem = process.geteuid?.() !== 0 ? "not root" : await sandboxProblem();
if (problem !== null) console.warn(`sandbox orphan test skipped: ${problem}`);

const here = import.meta.dirname;
/** Runs a sandboxed GridRush episode whose game is `game`; prints each runnable it starts. */
const episodeScript = (game: string) => `
import { runEpisode } from ${JSON.stringify(pathToFileURL(join(here, "../run-episode.ts")).href)};
import { bundledPlayer, gridrushDir, gridrushEpisode, gridrushManifest, inline } from ${JSON.stringify(pathToFileURL(join(here, "../../../testing/episodes.ts")).href)};
const manifest = gridrushManifest();
// The second seat connects and never moves: every turn waits out its timeout.
const silent = { runnable: inline("new WebSocket(process.env.COWORLD_PLAYER_WS_URL); setInterval(() => {}, 1000)"), cwd: gridrushDir };
const { input } = gridrushEpisode({
  runtime: "sandbox",
  manifest: { ...manifest, game: { ...manifest.game, run: ${game} } },
  players: [bundledPlayer(manifest, "greedy"), silent],
  gameConfig: { width: 7, height: 7, turns: 1000, turn_timeout_ms: 10000 },
  onEvent: (event) => { if (event.type === "started") console.log(event.runnable); },
});
await runEpisode(input);
`;

/** The parent of `pid`, from /proc (null once it is gone). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

/** Every live process below `root`, with its start time (a later process may reuse the pid). */
function descendants(root: number): { pid: number; startTime: number }[] {
  const all = allProcesses().filter((p) => !p.zombie);
  const below = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!below.has(p.pid) && below.has(parentOf(p.pid) ?? -1)) {
        below.add(p.pid);
        grew = true;
      }
  }
  return all
    .filter((p) => p.pid !== root && below.has(p.pid))
    .map((p) => ({ pid: p.pid, startTime: p.startTime }));
}

function alive(processes: { pid: number; startTime: number }[]): number[] {
  return processes
    .filter((p) => {
      const info = procInfo(p.pid);
      return info !== null && !info.zombie && info.startTime === p.startTime;
    })
    .map((p) => p.pid);
}

/** Starts the episode, waits until `started` runnables have started, then kills the runner. */
async function killRunnerAfter(game: string, started: number): Promise<number[]> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", episodeScript(game)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let seen = 0;
  await new Promise<void>((resolve, reject) => {
    child.once("exit", () => reject(new Error("the episode ended before the kill")));
    child.stdout.on("data", (chunk: Buffer) => {
      seen += chunk.toString().trim().split("\n").length;
      if (seen >= started) resolve();
    });
  });
  // Every sandbox made (bwrap, its shells, socat, Node inside) and its program started.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const pid = child.pid ?? 0;
  const episode = descendants(pid);
  child.kill("SIGKILL");
  await exited;
  for (let waited = 0; waited < 5_000 && alive(episode).length > 0; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const left = alive(episode);
  // Not to leave them to the next test run.
  for (const p of left) process.kill(p, "SIGKILL");
  expect(episode.length).toBeGreaterThan(3);
  return left;
}

describe.skipIf(problem !== null)("a runner killed with SIGKILL", () => {
  it("leaves nothing of a game that boots and the players' boxes held for it", async () => {
    // A game that never listens: the players stay held.
    const left = await killRunnerAfter('["node", "-e", "setInterval(() => {}, 1000)"]', 3);
    expect(left).toEqual([]);
  }, 60_000);

  it("leaves nothing of an episode being played", async () => {
    const left = await killRunnerAfter('["node", "game/server.ts"]', 3);
    expect(left).toEqual([]);
  }, 60_000);
});
