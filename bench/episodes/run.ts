// Episodes per minute that one runner sustains on the example coworld (GridRush), on the
// `process` runtime (trusted code) and the `sandbox` runtime (the default) side by side, at
// concurrency 1 and 2, with the sandbox's ratio to process, and where the time of one episode goes.
// Beside the wall-clock throughput, the CPU time per episode of the runner and everything it
// starts (a cgroup v2 group per level, as root): the other load on the machine moves the first,
// not the second. The server runs in this process (SQLite in a temporary directory, budgets
// enforced as in production); the runner is a separate process, as in production, logging JSON
// lines that this script reads.
//
//   node bench/episodes/run.ts                    (30 episodes per level, variant duel-small)
//   BENCH_EPISODES=60 BENCH_VARIANT=ffa-4 node bench/episodes/run.ts
//   BENCH_SANDBOX_BEFORE=/copy/of/apps/runner/src/main.ts node bench/episodes/run.ts
//     (adds a `sandbox-before` column run by that runner: a change's before and after, interleaved)
//
// Not a test: numbers depend on the machine. Run on an otherwise idle machine.
import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { CoworldManifest } from "@gauntlet/core";
import { createEpisode, registerExampleCoworld } from "@gauntlet/server/bench";
import { startTestServer } from "@gauntlet/server/testing";

import { createCpuGroup } from "./cpu-group.ts";

const EPISODES = Number(process.env.BENCH_EPISODES ?? 30);
const VARIANT = process.env.BENCH_VARIANT ?? "duel-small";
const LEVELS = [1, 2];
/** The runtimes compared; each runs every level. (A docker column needs an image-based GridRush.) */
const RUNNER_MAIN = join(import.meta.dirname, "../../apps/runner/src/main.ts");
const BEFORE_MAIN = process.env.BENCH_SANDBOX_BEFORE;
interface RuntimeColumn {
  name: string;
  main: string;
  args: string[];
}
const RUNTIMES: RuntimeColumn[] = [
  { name: "process", main: RUNNER_MAIN, args: ["--runtime", "process", "--trusted-code"] },
  ...(BEFORE_MAIN === undefined
    ? []
    : [{ name: "sandbox-before", main: BEFORE_MAIN, args: ["--runtime", "sandbox"] }]),
  { name: "sandbox", main: RUNNER_MAIN, args: ["--runtime", "sandbox"] },
];

interface JobLine {
  time: string;
  msg: string;
  job?: string;
  prepare_ms?: number;
  start_ms?: number;
  healthy_ms?: number;
  game_ms?: number;
  episode_ms?: number;
  upload_ms?: number;
  report_ms?: number;
  total_ms?: number;
}

const server = await startTestServer();
const db = server.server.store.db;
const registered = await registerExampleCoworld(server.server.store, server.server.context.blobs);
if (!registered) throw new Error("the example coworld was not registered");
const coworld = registered;
const manifest = CoworldManifest.parse(coworld.manifest);
const found = manifest.variants.find((v) => v.id === VARIANT);
if (!found)
  throw new Error(
    `gridrush has no variant ${VARIANT} (try ${manifest.variants.map((v) => v.id).join(", ")})`,
  );
const variant = found;
const seats = Array.isArray(variant.game_config.players) ? variant.game_config.players.length : 2;
const roster = ["greedy", "wanderer", "random", "greedy"].slice(0, seats);
const admin = await db
  .selectFrom("users")
  .select("id")
  .where("is_admin", "=", 1)
  .executeTakeFirstOrThrow();
const token = await server.machineToken("bench-runner");
const workDir = join(server.testStore.dataDir, "runner");

async function enqueue(count: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i++) {
      await createEpisode(trx, {
        requesterUserId: admin.id,
        purpose: "manual",
        coworld,
        gameConfig: variant.game_config,
        participants: roster.map((id, position) => ({
          position,
          bundledPlayerId: id,
          displayName: id,
        })),
      });
    }
  });
}

interface LevelRun {
  lines: JobLine[];
  /** CPU µs of the runner and all it started, from the first lease to the last report; null
   * where no cgroup v2 group could be made. */
  cpuUsec: number | null;
}

/** Runs `count` queued episodes on a fresh runner process and returns its job lines. */
async function runLevel(
  concurrency: number,
  count: number,
  runtime: RuntimeColumn,
): Promise<LevelRun> {
  await enqueue(count);
  const group = await createCpuGroup(`${runtime.name}-c${concurrency}-${count}`);
  const [program = process.execPath, ...prefix] = group?.wrap ?? [];
  const child = spawn(
    program,
    [
      ...prefix,
      ...(group === null ? [] : [process.execPath]),
      runtime.main,
      "--server",
      server.url,
      "--concurrency",
      String(concurrency),
      "--log-format",
      "json",
      "--log-level",
      "debug",
      "--work-dir",
      workDir,
      ...runtime.args,
    ],
    {
      env: { PATH: process.env.PATH ?? "", GAUNTLET_TOKEN: token },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines: JobLine[] = [];
  let ended = 0;
  // From the first lease: the runner's own start (and the sandbox's probe) is not an episode's.
  const firstLease: { usage: Promise<number> | null } = { usage: null };
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the runner exited early (code ${code})`)));
    createInterface({ input: child.stdout }).on("line", (text) => {
      const line = JSON.parse(text) as JobLine;
      lines.push(line);
      if (line.msg === "job leased" && group !== null) firstLease.usage ??= group.usageUsec();
      if (line.msg === "job failed on the runner" || line.msg === "job failed")
        process.stderr.write(`episode failed: ${text}\n`);
      if (
        line.msg === "job completed" ||
        line.msg === "job failed" ||
        line.msg === "job failed on the runner"
      )
        ended += 1;
      if (ended === count) resolve();
    });
  });
  const atEnd = group === null ? null : await group.usageUsec();
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  await group?.remove();
  const start = await (firstLease.usage ?? Promise.resolve(null));
  return { lines, cpuUsec: atEnd === null || start === null ? null : atEnd - start };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

interface LevelResult {
  perMinute: number;
  failed: number;
  /** CPU ms per episode, runner and all it started; null where it could not be counted. */
  cpuMs: number | null;
  parts: Record<string, number>;
}

function summarize({ lines, cpuUsec }: LevelRun): LevelResult {
  const leased = lines.filter((l) => l.msg === "job leased").map((l) => Date.parse(l.time));
  const ends = lines.filter((l) => l.msg === "job completed" || l.msg === "job failed");
  const windowMs = Math.max(...ends.map((l) => Date.parse(l.time))) - Math.min(...leased);
  const of = (key: keyof JobLine) => median(ends.map((l) => Number(l[key] ?? 0)));
  const teardown = median(
    ends.map(
      (l) => (l.episode_ms ?? 0) - (l.start_ms ?? 0) - (l.healthy_ms ?? 0) - (l.game_ms ?? 0),
    ),
  );
  return {
    perMinute: (ends.length / windowMs) * 60_000,
    failed: ends.filter((l) => l.msg === "job failed").length,
    cpuMs: cpuUsec === null ? null : cpuUsec / 1000 / ends.length,
    parts: {
      "prepare (bundle cache, work dir)": of("prepare_ms"),
      "start (config, port, spawn the game)": of("start_ms"),
      "game process boot to /healthz 200": of("healthy_ms"),
      "players start, play, game exits": of("game_ms"),
      "teardown (stop runnables, read files)": teardown,
      "upload artifacts": of("upload_ms"),
      "report (complete)": of("report_ms"),
      "total on the runner": of("total_ms"),
    },
  };
}

process.stdout.write(
  `GridRush ${VARIANT} (${seats} seats: ${roster.join(", ")}), ${EPISODES} episodes per level, ${availableParallelism()} CPUs, Node ${process.version}\n`,
);
// Warm-up: the bundle is downloaded and extracted once, Node's compile cache filled.
for (const runtime of RUNTIMES) {
  const warm = await runLevel(1, 2, runtime);
  const first = warm.lines.find((l) => l.msg === "job completed");
  if (runtime === RUNTIMES[0])
    process.stdout.write(
      `warm-up: the first episode spent ${first?.prepare_ms ?? "?"} ms downloading and extracting the coworld bundle\n`,
    );
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
process.stdout.write(`load average before: ${load()}\n\n`);

const results: LevelResult[] = [];
const columns: string[] = [];
// Interleaved (process, sandbox at each level), so that load on the machine hits both alike.
for (const concurrency of LEVELS)
  for (const runtime of RUNTIMES) {
    columns.push(`${runtime.name} c${concurrency}`);
    results.push(summarize(await runLevel(concurrency, EPISODES, runtime)));
  }
process.stdout.write(`load average after: ${load()}\n`);

const col = (s: string) => s.padStart(18);
process.stdout.write(`${"".padEnd(42)}${columns.map((c) => col(c)).join("")}\n`);
process.stdout.write(
  `${"episodes per minute".padEnd(42)}${results.map((r) => col(r.perMinute.toFixed(1))).join("")}\n`,
);
process.stdout.write(
  `${"failed episodes".padEnd(42)}${results.map((r) => col(String(r.failed))).join("")}\n`,
);
process.stdout.write(
  `${"CPU ms per episode (runner and children)".padEnd(42)}${results.map((r) => col(r.cpuMs === null ? "n/a" : r.cpuMs.toFixed(0))).join("")}\n`,
);
// Each sandbox column against process at its level: throughput, and process ÷ sandbox CPU per
// episode (at saturation throughput follows CPU per episode, and this one holds still).
for (const [index, runtime] of RUNTIMES.entries()) {
  if (index === 0) continue;
  const ratios = LEVELS.map((c, level) => {
    const base = results[level * RUNTIMES.length];
    const other = results[level * RUNTIMES.length + index];
    const cpu =
      base?.cpuMs == null || other?.cpuMs == null ? "n/a" : (base.cpuMs / other.cpuMs).toFixed(2);
    return `c${c} ${((other?.perMinute ?? 0) / (base?.perMinute ?? 1)).toFixed(2)} (CPU ${cpu})`;
  });
  process.stdout.write(
    `${runtime.name} / process, episodes per minute (CPU per episode): ${ratios.join(", ")}\n`,
  );
}
process.stdout.write("median ms per episode:\n");
for (const part of Object.keys(results[0]?.parts ?? {})) {
  process.stdout.write(
    `  ${part.padEnd(40)}${results.map((r) => col(String(Math.round(r.parts[part] ?? 0)))).join("")}\n`,
  );
}
await server.close();
