// A seat's CPU in the sandbox: however many threads it spins, it gets no more than its cap (the
// coworld's `player[].resources.limits.cpu`), and the CPU seconds of every runnable are on the
// episode's outcome. Needs root (cgroups) and bubblewrap.
import { afterAll, describe, expect, it } from "vitest";

import {
  bundledPlayer,
  gridrushDir,
  gridrushEpisode,
  gridrushManifest,
  inline,
  removeWorkDirs,
} from "../../../testing/episodes.ts";
import { runEpisode } from "../run-episode.ts";
import { createCgroups, DEFAULT_LIMITS } from "./limits.ts";
import { sandboxProblem } from "./sandbox-probe.ts";

/** Why no capped CPU group can be made here, or null. */
async function cpuGroupProblem(): Promise<string | null> {
  const groups = await createCgroups("probe", DEFAULT_LIMITS);
  const usage = await groups?.cpuUsage();
  await groups?.remove();
  return usage === null || usage === undefined ? "no cpu cgroup here" : null;
}

const problem =
  process.geteuid?.() !== 0 ? "not root" : ((await sandboxProblem()) ?? (await cpuGroupProblem()));
if (problem !== null) console.warn(`sandbox CPU test skipped: ${problem}`);

afterAll(removeWorkDirs);

/** Connects, never moves, and spins four threads at once until it is stopped. */
const SPINNER = `
const { Worker } = require("node:worker_threads");
const spin = "for (;;) {}";
for (let i = 0; i < 3; i += 1) new Worker(spin, { eval: true });
new WebSocket(process.env.COWORLD_PLAYER_WS_URL);
setTimeout(() => { for (;;) {} }, 200);
`;

describe.skipIf(problem !== null)("a sandboxed seat's CPU", () => {
  it("is capped at the coworld's limit and counted per seat on the outcome", async () => {
    const manifest = gridrushManifest();
    const capped = {
      ...manifest,
      player: manifest.player.map((p) => ({ ...p, resources: { limits: { cpu: "250m" } } })),
    };
    const { input } = gridrushEpisode({
      runtime: "sandbox",
      manifest: capped,
      players: [bundledPlayer(capped, "greedy"), { runnable: inline(SPINNER), cwd: gridrushDir }],
      // 12 turns that each wait out the spinner's missing move: about 3 s of play.
      gameConfig: { width: 7, height: 7, turns: 12, coins: 4, turn_timeout_ms: 250 },
    });
    const outcome = await runEpisode(input);
    expect(outcome.status).toBe("completed");
    const { cpu, timings } = outcome;
    expect(cpu.cpus_per_runnable).toBe(0.25);
    expect(cpu.unmeasured).toBeNull();
    const spinner = cpu.seats[1] ?? 0;
    // Its box lives from the game's start to the end of the episode at most.
    const wall = timings.totalMs / 1000;
    expect(spinner).toBeGreaterThan(0.25 * (timings.gameMs / 1000) * 0.5);
    // Four spinning threads on an uncapped host would take every core for the whole play.
    expect(spinner).toBeLessThanOrEqual(0.25 * wall * 1.1);
    expect(cpu.seats[0]).toBeGreaterThan(0);
    expect(cpu.game).toBeGreaterThan(0);
    expect(cpu.runner.cores).toBeGreaterThan(0);
  }, 60_000);
});
