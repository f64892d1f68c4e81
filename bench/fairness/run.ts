// Whether a seat keeps its CPU when its opponent and the runner are busy: two seats of GridRush,
// one "idle" (it sleeps 50 ms, then computes a fixed amount, then moves, every turn) and one
// spinning every core it can (2 × cores threads), beside another episode whose seats spin
// (`episodes`: the runner busy with its own work, the seats' caps adding up to more than the
// cores — the case the target is for), beside CPU burners of the host's own outside any sandbox
// (one per core: `busy`), and beside both (`over-committed`). The idle seat's turn latency (a turn's message to its
// move) and CPU seconds, beside a quiet run (its opponent answers at once, nothing else runs),
// as a ratio: the target is within 10%. The sandbox runtime (a CPU group per runnable: equal
// shares, a cap) beside the process runtime (no groups: every thread competes on its own),
// runs interleaved.
//
//   node bench/fairness/run.ts          (3 runs per column; BENCH_RUNS=5 for more;
//                                        BENCH_RUNTIMES=sandbox for one column)
//
// Needs root (cgroups) and bubblewrap (tooling/scripts/ensure-system-packages.sh bwrap). Not a
// test: figures depend on the machine.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";

import { settled } from "@gauntlet/core";
import { joinRunnerGroup, runEpisode } from "@gauntlet/runner";
import { gridrushDir, gridrushEpisode, removeWorkDirs } from "@gauntlet/runner/testing";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** Where this process (the runner of the episodes) runs: as gauntlet-runner does on the sandbox
 * runtime, in its group beside the sandboxes; for the process column, in the root group with
 * every other task, as before CPU groups. */
async function placeRunner(runtime: Runtime): Promise<void> {
  if (runtime === "sandbox") {
    if (!(await joinRunnerGroup())) throw new Error("no cpu cgroup can be made here");
  } else await writeFile("/sys/fs/cgroup/cpu/cgroup.procs", String(process.pid));
}
const TURNS = 30;
const CORES = availableParallelism();

if (process.geteuid?.() !== 0) {
  console.error("bench fairness needs root (cgroups)");
  process.exit(1);
}

/** Every turn: 50 ms of sleep, a fixed computation, the move; logs the turn's latency. */
const IDLE = `
const socket = new WebSocket(process.env.COWORLD_PLAYER_WS_URL);
socket.addEventListener("message", (event) => {
  const m = JSON.parse(String(event.data));
  if (m.type !== "turn") return;
  const at = performance.now();
  setTimeout(() => {
    let x = 0;
    for (let i = 0; i < 5_000_000; i += 1) x = (x + i * 7) % 1_000_003;
    socket.send(JSON.stringify({ type: "move", turn: m.turn, move: x < 0 ? "N" : "stay" }));
    console.log("turn " + (performance.now() - at).toFixed(1));
  }, 50);
});
socket.addEventListener("close", () => process.exit(0));
`;
/** Answers every turn at once; in the busy run, spins 2 × cores threads meanwhile. */
const opponent = (spin: boolean) => `
const { Worker } = require("node:worker_threads");
${spin ? `for (let i = 0; i < ${2 * CORES}; i += 1) new Worker("for (;;) {}", { eval: true });` : ""}
const socket = new WebSocket(process.env.COWORLD_PLAYER_WS_URL);
socket.addEventListener("message", (event) => {
  const m = JSON.parse(String(event.data));
  if (m.type === "turn") socket.send(JSON.stringify({ type: "move", turn: m.turn, move: "stay" }));
});
socket.addEventListener("close", () => process.exit(0));
`;
/** Spins and never moves: a background episode that lasts until it is cancelled. */
const SPINNER = `
const { Worker } = require("node:worker_threads");
for (let i = 0; i < ${CORES}; i += 1) new Worker("for (;;) {}", { eval: true });
new WebSocket(process.env.COWORLD_PLAYER_WS_URL);
`;

type Runtime = "sandbox" | "process";
const inline = (script: string) => ({
  runnable: { run: ["node", "-e", script] },
  cwd: gridrushDir,
});

interface Figures {
  meanMs: number;
  p95Ms: number;
  cpuSeconds: number | null;
  busy: number;
}

async function measured(runtime: Runtime, busy: boolean): Promise<Figures | null> {
  const { input } = gridrushEpisode({
    runtime,
    players: [inline(IDLE), inline(opponent(busy))],
    gameConfig: { width: 7, height: 7, turns: TURNS, coins: 4, turn_timeout_ms: 10_000 },
    healthTimeoutMs: 60_000,
    seatWallClockMs: 0,
  });
  const outcome = await runEpisode(input);
  if (outcome.status !== "completed") {
    console.log(`${runtime}: the measured episode failed: ${outcome.error_type}`);
    return null;
  }
  const turns = [...(outcome.playerLogs[0] ?? "").matchAll(/^turn ([\d.]+)$/gm)]
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  if (turns.length === 0) throw new Error("the idle seat logged no turn");
  return {
    meanMs: turns.reduce((a, b) => a + b, 0) / turns.length,
    p95Ms: turns[Math.min(turns.length - 1, Math.floor(turns.length * 0.95))] ?? 0,
    cpuSeconds: outcome.cpu.seats[0] ?? null,
    busy: outcome.cpu.runner.busy_fraction,
  };
}

/**
 * What runs beside the measured episode: `episodes`, another episode whose two seats spin (with
 * the spinning opponent, three seats of 1 CPU each want more than the host's cores); `busy`, CPU
 * burners of the host's own (one per core, outside any sandbox); `over-committed`, both.
 */
function background(runtime: Runtime, level: Level): { stop: () => Promise<void> } {
  const cancel = new AbortController();
  const episode =
    level === "over-committed" || level === "episodes"
      ? settled(
          runEpisode(
            gridrushEpisode({
              runtime,
              players: [inline(SPINNER), inline(SPINNER)],
              gameConfig: { width: 7, height: 7, turns: 5, coins: 4, turn_timeout_ms: 10_000 },
              seatWallClockMs: 0,
              deadlineMs: 600_000,
              signal: cancel.signal,
            }).input,
          ),
        )
      : Promise.resolve();
  const burners: ChildProcess[] = [];
  for (let i = 0; i < (level === "episodes" ? 0 : CORES); i += 1)
    burners.push(spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return {
    async stop() {
      for (const burner of burners) burner.kill("SIGKILL");
      cancel.abort();
      await episode;
    },
  };
}

type Level = "quiet" | "episodes" | "busy" | "over-committed";
const LEVELS: Level[] = ["quiet", "episodes", "busy", "over-committed"];
const columns = (process.env.BENCH_RUNTIMES ?? "sandbox,process")
  .split(",")
  .filter((r): r is Runtime => r === "sandbox" || r === "process");
const results = new Map<string, Figures[]>();
const add = (key: string, f: Figures | null) =>
  results.set(key, [...(results.get(key) ?? []), ...(f === null ? [] : [f])]);
console.log(`${CORES} cores, load ${loadavg()[0]?.toFixed(2)} at the start; ${RUNS} runs each`);
for (let run = 0; run < RUNS; run += 1)
  for (const runtime of columns) {
    await placeRunner(runtime);
    for (const level of LEVELS) {
      if (level === "quiet") {
        add(`${runtime} quiet`, await measured(runtime, false));
        continue;
      }
      const load = background(runtime, level);
      // The background's boxes and burners running first.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      try {
        add(`${runtime} ${level}`, await measured(runtime, true));
      } finally {
        await load.stop();
      }
    }
    console.log(`run ${run + 1}/${RUNS} of ${runtime} done`);
  }
removeWorkDirs();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const of = (key: string) => {
  const fs = results.get(key) ?? [];
  const cpu = fs.flatMap((f) => (f.cpuSeconds === null ? [] : [f.cpuSeconds]));
  return {
    meanMs: mean(fs.map((f) => f.meanMs)),
    p95Ms: mean(fs.map((f) => f.p95Ms)),
    cpu: cpu.length === 0 ? null : mean(cpu),
    busy: mean(fs.map((f) => f.busy)),
  };
};
const pad = (s: string, n: number) => s.padEnd(n);
console.log(
  `\n${pad("runtime", 9)}${pad("beside", 16)}${pad("turn mean", 11)}${pad("turn p95", 10)}${pad("idle seat cpu", 15)}${pad("runner busy", 13)}ratio to quiet (mean, p95, cpu)`,
);
for (const runtime of columns) {
  const quiet = of(`${runtime} quiet`);
  for (const level of LEVELS) {
    const f = of(`${runtime} ${level}`);
    const cpuRatio = f.cpu === null || quiet.cpu === null ? "-" : (f.cpu / quiet.cpu).toFixed(2);
    console.log(
      `${pad(runtime, 9)}${pad(level, 16)}${pad(`${f.meanMs.toFixed(1)} ms`, 11)}${pad(`${f.p95Ms.toFixed(1)} ms`, 10)}${pad(f.cpu === null ? "-" : `${f.cpu.toFixed(2)} s`, 15)}${pad(`${Math.round(f.busy * 100)}%`, 13)}${(f.meanMs / quiet.meanMs).toFixed(2)}, ${(f.p95Ms / quiet.p95Ms).toFixed(2)}, ${cpuRatio}`,
    );
  }
}
console.log("target: the idle seat within 10% of its quiet run (ratios at most 1.10)");
process.exit(0);
