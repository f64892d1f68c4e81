// Helpers for the executor's tests: the example coworld, its bundled players, and a check
// that every process an episode started is gone.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { CoworldManifest } from "@gauntlet/core";

import type { EpisodeEvent, EpisodePlayer, RunEpisodeInput } from "../src/episode/types.ts";

export const gridrushDir = join(import.meta.dirname, "../../../examples/coworlds/gridrush");

export function gridrushManifest(): CoworldManifest {
  return CoworldManifest.parse(
    JSON.parse(readFileSync(join(gridrushDir, "coworld_manifest.json"), "utf8")),
  );
}

export function bundledPlayer(manifest: CoworldManifest, id: string): EpisodePlayer {
  const player = manifest.player.find((p) => p.id === id);
  if (player === undefined) throw new Error(`no bundled player ${id}`);
  return { runnable: player, cwd: gridrushDir, displayName: player.name };
}

/** A player or game given as a script for the runner's Node (`node -e`). */
export function inline(script: string): { run: string[] } {
  return { run: ["node", "-e", script] };
}

/** Running and not a zombie: a zombie has ended, it only waits for a parent that never reaps it. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

const workDirs: string[] = [];

export function newWorkDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "gauntlet-episode-"));
  workDirs.push(dir);
  return dir;
}

export function removeWorkDirs(): void {
  for (const dir of workDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** An episode input for gridrush with a recorder of the executor's events. */
export function gridrushEpisode(overrides: Partial<RunEpisodeInput> = {}): {
  input: RunEpisodeInput;
  events: EpisodeEvent[];
  pids: () => number[];
} {
  const manifest = overrides.manifest ?? gridrushManifest();
  const events: EpisodeEvent[] = [];
  const input: RunEpisodeInput = {
    coworldDir: gridrushDir,
    manifest,
    gameConfig: { width: 7, height: 7, turns: 15, coins: 4 },
    players: [bundledPlayer(manifest, "greedy"), bundledPlayer(manifest, "random")],
    secrets: {},
    workDir: newWorkDir(),
    deadlineMs: 120_000,
    runtime: "process",
    onEvent: (event) => events.push(event),
    ...overrides,
  };
  const pids = () => events.flatMap((e) => (e.type === "started" && e.pid !== null ? [e.pid] : []));
  return { input, events, pids };
}
