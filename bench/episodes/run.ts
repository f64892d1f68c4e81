// Episodes per minute that one runner sustains on the example coworld (GridRush), on the
// `process` runtime (trusted code) and the `sandbox` runtime (the default) side by side, at
// concurrency 1 and 2, with the sandbox's ratio to process, and where the time of one episode goes. The server runs in
// this process (SQLite in a temporary directory, budgets enforced as in production); the runner
// is a separate process, as in production, logging JSON lines that this script reads.
//
//   node bench/episodes/run.ts                    (30 episodes per level, variant duel-small)
//   BENCH_EPISODES=60 BENCH_VARIANT=ffa-4 node bench/episodes/run.ts
//
// Not a test: numbers depend on the machine. Run on an otherwise idle machine.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { CoworldManifest } from "@gauntlet/core";
import { createEpisode, registerExampleCoworld } from "@gauntlet/server/bench";
import { startTestServer } from "@gauntlet/server/testing";

const EPISODES = Number(process.env.BENCH_EPISODES ?? 30);
const VARIANT = process.env.BENCH_VARIANT ?? "duel-small";
const LEVELS = [1, 2];
/** The runtimes compared; each runs every level. (A docker column needs an image-based GridRush.) */
const RUNTIMES = [
  { name: "process", args: ["--runtime", "process", "--trusted-code"] },
  { name: "sandbox", args: ["--runtime", "sandbox"] },
];
const RUNNER_MAIN = join(import.meta.dirname, "../../apps/runner/src/main.ts");

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

/** Runs `count` queued episodes on a fresh runner process and returns its job lines. */
async function runLevel(
  concurrency: number,
  count: number,
  runtimeArgs: string[],
): Promise<JobLine[]> {
  await enqueue(count);
  const child = spawn(
    process.execPath,
    [
      RUNNER_MAIN,
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
      ...runtimeArgs,
    ],
    {
      env: { PATH: process.env.PATH ?? "", GAUNTLET_TOKEN: token },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines: JobLine[] = [];
  let ended = 0;
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the runner exited early (code ${code})`)));
    createInterface({ input: child.stdout }).on("line", (text) => {
      const line = JSON.parse(text) as JobLine;
      lines.push(line);
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
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return lines;
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
  parts: Record<string, number>;
}

function summarize(lines: JobLine[]): LevelResult {
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
const warm = await runLevel(1, 2, RUNTIMES[0]?.args ?? []);
const first = warm.find((l) => l.msg === "job completed");
process.stdout.write(
  `warm-up: the first episode spent ${first?.prepare_ms ?? "?"} ms downloading and extracting the coworld bundle\n\n`,
);

const results: LevelResult[] = [];
const columns: string[] = [];
// Interleaved (process, sandbox at each level), so that load on the machine hits both alike.
for (const concurrency of LEVELS)
  for (const runtime of RUNTIMES) {
    columns.push(`${runtime.name} c${concurrency}`);
    results.push(summarize(await runLevel(concurrency, EPISODES, runtime.args)));
  }

const col = (s: string) => s.padStart(14);
process.stdout.write(`${"".padEnd(42)}${columns.map((c) => col(c)).join("")}\n`);
process.stdout.write(
  `${"episodes per minute".padEnd(42)}${results.map((r) => col(r.perMinute.toFixed(1))).join("")}\n`,
);
process.stdout.write(
  `${"failed episodes".padEnd(42)}${results.map((r) => col(String(r.failed))).join("")}\n`,
);
const ratios = LEVELS.map((c, i) => {
  const [base, sandbox] = results.slice(i * RUNTIMES.length, i * RUNTIMES.length + 2);
  return `c${c} ${((sandbox?.perMinute ?? 0) / (base?.perMinute ?? 1)).toFixed(2)}`;
});
process.stdout.write(`sandbox / process, episodes per minute: ${ratios.join(", ")}\n`);
process.stdout.write("median ms per episode:\n");
for (const part of Object.keys(results[0]?.parts ?? {})) {
  process.stdout.write(
    `  ${part.padEnd(40)}${results.map((r) => col(String(Math.round(r.parts[part] ?? 0)))).join("")}\n`,
  );
}
await server.close();
