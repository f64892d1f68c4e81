// The data directory of the demo league over time, without and with the retention policy, side
// by side: two `gauntlet-server start` processes (each with its embedded runner and the demo
// league, as a user starts it) on fresh data directories, run at the same time on the same
// machine; every sample prints each directory's size on disk (blocks, as `du` counts them) and
// its file count. At the end: the growth per hour of each, and what a day would be.
//
//   node bench/retention/run.ts                       (10 minutes, a sample every 30 s)
//   BENCH_MINUTES=60 node bench/retention/run.ts      (the hour the issue asks about)
//   BENCH_KEEP=100 node bench/retention/run.ts        (episodes kept per division; default 100)
//
// Honest acceleration: the league plays at its own pace (episodes are real games on the
// runner); only the compaction is made to run sooner (every 30 s instead of 5 minutes, and a
// blob grace of 30 s instead of an hour), so that the run shows within minutes the plateau a
// server reaches on its own. Not a test: numbers depend on the machine.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 30_000);
const KEEP = process.env.BENCH_KEEP ?? "100";
const MAIN = join(import.meta.dirname, "../../apps/server/src/cli/main.ts");

interface Variant {
  name: string;
  env: Record<string, string>;
  dir: string;
  child?: ChildProcess;
}

const variants: Variant[] = [
  { name: "without retention", env: { GAUNTLET_RETENTION_EPISODES: "all" }, dir: "" },
  {
    name: `with retention (keep ${KEEP})`,
    env: {
      GAUNTLET_RETENTION_EPISODES: KEEP,
      GAUNTLET_RETENTION_INTERVAL_MS: "30000",
      GAUNTLET_RETENTION_BLOB_GRACE_MS: "30000",
    },
    dir: "",
  },
];

/** Bytes on disk (allocated blocks, like `du`) and files under a directory. */
function usage(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (path: string) => {
    let info;
    try {
      info = statSync(path);
    } catch {
      return;
    }
    bytes += info.blocks * 512;
    if (info.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    else files += 1;
  };
  walk(dir);
  return { bytes, files };
}

function start(v: Variant): Promise<void> {
  v.dir = mkdtempSync(join(tmpdir(), "gauntlet-bench-retention-"));
  const child = spawn(
    process.execPath,
    [MAIN, "start", "--port", "0", "--data-dir", join(v.dir, "data")],
    {
      env: { ...process.env, ...v.env, GAUNTLET_LOG_LEVEL: "error" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  v.child = child;
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Demo league:")) resolve();
    });
    child.stderr.on("data", (chunk: Buffer) =>
      process.stderr.write(`[${v.name}] ${chunk.toString()}`),
    );
    child.on("exit", (code) =>
      reject(new Error(`${v.name} exited with ${code}: ${out.slice(-500)}`)),
    );
  });
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1).padStart(7);

await Promise.all(variants.map(start));
const started = Date.now();
const first = variants.map((v) => usage(v.dir));
const last = [...first];
console.log(
  `the demo league, ${MINUTES} min, a sample every ${SAMPLE_MS / 1000} s (MB on disk · files)`,
);
console.log(`  min  ${variants.map((v) => v.name.padEnd(28)).join("")}`);
const print = (elapsedMs: number, sizes: { bytes: number; files: number }[]) =>
  console.log(
    `${(elapsedMs / 60_000).toFixed(1).padStart(5)}  ${sizes
      .map((s) => `${mb(s.bytes)} MB · ${String(s.files).padStart(6)}`.padEnd(28))
      .join("")}`,
  );
print(0, first);
while (Date.now() - started < MINUTES * 60_000) {
  await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  const sizes = variants.map((v) => usage(v.dir));
  sizes.forEach((s, i) => (last[i] = s));
  print(Date.now() - started, sizes);
}
const hours = (Date.now() - started) / 3_600_000;
for (const [i, v] of variants.entries()) {
  const grown = (last[i]?.bytes ?? 0) - (first[i]?.bytes ?? 0);
  console.log(
    `${v.name}: ${mb(last[i]?.bytes ?? 0).trim()} MB after ${(hours * 60).toFixed(0)} min; grew ${mb(grown / hours).trim()} MB/hour (${mb((grown / hours) * 24).trim()} MB a day at that rate)`,
  );
}
for (const v of variants) {
  v.child?.removeAllListeners("exit");
  v.child?.kill("SIGINT");
}
await new Promise((resolve) => setTimeout(resolve, 3000));
for (const v of variants) {
  v.child?.kill("SIGKILL");
  rmSync(v.dir, { recursive: true, force: true });
}
