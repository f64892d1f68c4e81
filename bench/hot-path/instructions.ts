// Issue 33: the hot path counted in instructions. callgrind counts the instructions a process
// executes in user space, the same whatever else the machine runs, so these figures repeat where
// req/s cannot. Every server under test lives in one process run under valgrind
// (instructions-host.ts); this process prepares the store, sends the requests — one keep-alive
// connection, one request at a time — and asks callgrind for the counts (callgrind_control).
//
// Per row and repeat: zero the counters, send N1 requests, dump; zero, send N2, dump; the row's
// figure is (I(N2) − I(N1)) / (N2 − N1), which cancels what a measurement costs once (the
// callgrind_control round trips, the first request after a pause). Rows are interleaved, after a
// warm-up of every row (the JIT must be done tiering up: see README). Two tables: every thread,
// and the main thread alone — V8's compiler threads finish their jobs at moments that differ
// per run, so the main thread's count is the one that repeats.
//
//   node bench/hot-path/instructions.ts
//   BENCH_N1=200 BENCH_N2=1000 BENCH_WARMUP=3000 BENCH_REPEATS=2 node bench/hot-path/instructions.ts   quick
//   BENCH_ONLY="with a token" node bench/hot-path/instructions.ts   only those rows (and hello, floor)
//   BENCH_RATES=0 …                        without the req/s rows of run.ts printed after the table
//   BENCH_KEEP_DUMPS=1 …                   keep callgrind's dumps (callgrind_annotate them)
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";

import { createTestStore } from "@gauntlet/server/testing";

import type { HostAddresses, HostSpec } from "./instructions-host.ts";
import { completeResponse } from "./load.ts";
import { realServer } from "./servers.ts";

const N1 = Number(process.env.BENCH_N1 ?? 2_000);
const N2 = Number(process.env.BENCH_N2 ?? 10_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
// Requests per row once the instrumentation is on, before the first measurement.
const SETTLE = Number(process.env.BENCH_SETTLE ?? 1_000);
// Fixed heap sizes, so that valgrind's slow clock does not change V8's collection policy.
const NODE_FLAGS = ["--no-memory-reducer", "--min-semi-space-size=32", "--max-semi-space-size=32"];

const exec = promisify(execFile);

/** One keep-alive connection sending `request` and reading each response before the next. */
async function connection(
  url: URL,
  headers: Record<string, string>,
): Promise<{ send(n: number): Promise<Buffer>; close(): void }> {
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const request = Buffer.from(
    `GET ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\n${extra}\r\n`,
  );
  const socket: Socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let pending: Buffer = Buffer.alloc(0);
  let wanted = 0;
  let last: Buffer = Buffer.alloc(0);
  let settle: ((error?: Error) => void) | undefined;
  socket.on("error", (error) => settle?.(error));
  socket.on("close", () => settle?.(new Error(`${url.href}: the connection closed`)));
  socket.on("data", (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const done = completeResponse(pending);
      if (!done) return;
      last = pending.subarray(0, done.length);
      pending = pending.subarray(done.length);
      if (done.status !== 200) return settle?.(new Error(`${url.href}: status ${done.status}`));
      wanted -= 1;
      if (wanted === 0) return settle?.();
      socket.write(request);
    }
  });
  return {
    send(n) {
      return new Promise((resolve, reject) => {
        settle = (error) => (error ? reject(error) : resolve(last));
        wanted = n;
        socket.write(request);
      });
    },
    close: () => socket.end(),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const testStore = await createTestStore();
const outDir = mkdtempSync(join(tmpdir(), "gauntlet-callgrind-"));
// The store is prepared here at full speed; the host opens it under valgrind.
const setup = await realServer(testStore);
await setup.server.close();
const spec: HostSpec = {
  dataDir: testStore.dataDir,
  databaseUrl: testStore.databaseUrl,
  pgSchema: testStore.pgSchema,
  token: setup.token,
  division: setup.division,
};
const host = spawn(
  "valgrind",
  [
    "--tool=callgrind",
    // Startup and the JIT's warm-up run uninstrumented (several times faster); counting starts
    // with `callgrind_control -i on` before the measured requests.
    "--instr-atstart=no",
    // One dump file per thread: the main thread's count (the request's own work) apart from
    // V8's compiler and GC helper threads.
    "--separate-threads=yes",
    `--callgrind-out-file=${join(outDir, "cg.%p")}`,
    process.execPath,
    ...NODE_FLAGS,
    new URL("./instructions-host.ts", import.meta.url).pathname,
    JSON.stringify(spec),
  ],
  { stdio: ["pipe", "pipe", "pipe"] },
);
let hostLog = "";
host.stderr.on("data", (chunk: Buffer) => {
  hostLog = (hostLog + chunk.toString()).slice(-4_000);
});
const pid = host.pid ?? 0;

/** The instructions callgrind has counted since the last zero, dumped now: all threads, and the main one. */
async function dumpTotal(): Promise<{ all: number; main: number }> {
  const before = new Set(readdirSync(outDir));
  await exec("callgrind_control", ["-d", String(pid)]);
  const fresh = readdirSync(outDir).filter((name) => !before.has(name));
  if (fresh.length === 0) throw new Error("callgrind wrote no dump");
  let all = 0;
  let main = 0;
  for (const file of fresh) {
    const match = /^totals: (\d+)/m.exec(readFileSync(join(outDir, file), "utf8"));
    if (!process.env.BENCH_KEEP_DUMPS) rmSync(join(outDir, file));
    // A thread that ran nothing since the last zero writes a dump without totals.
    const count = Number(match?.[1] ?? 0);
    all += count;
    if (file.endsWith("-01")) main += count;
  }
  return { all, main };
}

const hostLines = createInterface({ input: host.stdout });

try {
  process.stderr.write("starting the servers under callgrind (a few minutes)…\n");
  const addresses = await new Promise<HostAddresses>((resolve, reject) => {
    // The server's own log lines share the host's stdout; the addresses are the line of JSON
    // that starts with them.
    hostLines.on("line", (line) => {
      if (line.startsWith('{"hello":')) resolve(JSON.parse(line) as HostAddresses);
    });
    host.once("exit", (code) => reject(new Error(`the host exited (${code}): ${hostLog}`)));
  });
  const auth = { authorization: `Bearer ${spec.token}` };
  const all: { name: string; url: string; headers?: Record<string, string> }[] = [
    { name: "bare node:http JSON hello", url: addresses.hello },
    {
      name: "the floor: bare node:http, the token leaderboard's bytes",
      url: addresses.floor,
      headers: auth,
    },
    { name: "GET /healthz", url: `${addresses.server}/healthz` },
    { name: "leaderboard, anonymous", url: addresses.leaderboard },
    { name: "leaderboard with a token", url: addresses.leaderboard, headers: auth },
  ];
  const only = process.env.BENCH_ONLY;
  const rows = all.filter((row, i) => i < 2 || !only || row.name.includes(only));
  // A connection per row and turn (an idle one would meet the server's keep-alive timeout),
  // opened and used once before the counters are zeroed.
  const open = async (row: (typeof rows)[number]) => {
    const c = await connection(new URL(row.url), row.headers ?? {});
    const first = (await c.send(1)).toString("latin1").toLowerCase();
    if (
      row.headers &&
      row.url === addresses.leaderboard &&
      !first.includes("x-ratelimit-outcome: allowed")
    )
      throw new Error(`${row.name} was not budgeted (no X-RateLimit-Outcome: allowed)`);
    return c;
  };
  for (const row of rows) {
    process.stderr.write(`warm-up: ${row.name}\n`);
    const c = await open(row);
    await c.send(WARMUP);
    c.close();
  }
  await exec("callgrind_control", ["-i", "on", String(pid)]);
  for (const row of rows) {
    process.stderr.write(`warm-up, instrumented: ${row.name}\n`);
    const c = await open(row);
    await c.send(SETTLE);
    c.close();
  }
  const figures = rows.map(() => [] as number[]);
  const mainFigures = rows.map(() => [] as number[]);
  for (let r = 0; r < REPEATS; r += 1) {
    for (const [i, row] of rows.entries()) {
      const totals: { all: number; main: number }[] = [];
      const c = await open(row);
      for (const n of [N1, N2]) {
        await exec("callgrind_control", ["-z", String(pid)]);
        await c.send(n);
        totals.push(await dumpTotal());
      }
      c.close();
      const [small, large] = totals;
      if (!small || !large) throw new Error("a window was not counted");
      const perRequest = (large.all - small.all) / (N2 - N1);
      const mainPerRequest = (large.main - small.main) / (N2 - N1);
      figures[i]?.push(perRequest);
      mainFigures[i]?.push(mainPerRequest);
      process.stderr.write(
        `repeat ${r + 1}: ${row.name}: ${Math.round(perRequest)} (main thread ${Math.round(mainPerRequest)})\n`,
      );
    }
  }
  const int = (n: number) => Math.round(n).toLocaleString("en-US");
  process.stdout.write(
    `\nhot path in instructions (callgrind, user space of the servers' process; one keep-alive connection; ` +
      `(I(${N2}) − I(${N1})) / ${N2 - N1} after ${WARMUP} per row; ${REPEATS} repeats, median; Node ${process.version})\n`,
  );
  const table = (title: string, all: number[][]) => {
    const hello = median(all[0] ?? []);
    const floor = median(all[1] ?? []);
    process.stdout.write(
      `${title.padEnd(56)} ${"instructions".padStart(12)} ${"spread".padStart(7)} ${"÷ hello".padStart(8)} ${"÷ floor".padStart(8)}  repeats\n`,
    );
    for (const [i, row] of rows.entries()) {
      const values = all[i] ?? [];
      const m = median(values);
      const spread = (Math.max(...values) - Math.min(...values)) / m;
      process.stdout.write(
        `${row.name.padEnd(56)} ${int(m).padStart(12)} ${`${(spread * 100).toFixed(1)}%`.padStart(7)} ${(m / hello).toFixed(2).padStart(8)} ${(m / floor).toFixed(2).padStart(8)}  ${values.map(int).join(", ")}\n`,
      );
    }
  };
  table("request (all threads)", figures);
  process.stdout.write("\n");
  table("request (main thread only)", mainFigures);
} finally {
  host.stdin.end();
  if (host.exitCode === null && host.signalCode === null)
    await new Promise((resolve) => {
      const force = setTimeout(() => host.kill("SIGKILL"), 30_000);
      host.once("exit", () => resolve(clearTimeout(force)));
    });
  await testStore.cleanup();
  if (!process.env.BENCH_KEEP_DUMPS) rmSync(outDir, { recursive: true, force: true });
  else process.stderr.write(`callgrind dumps kept in ${outDir}\n`);
}

if (process.env.BENCH_RATES !== "0") {
  // The req/s rows of the existing bench, for the record (these move with the machine's load).
  await new Promise<void>((resolve) => {
    spawn(process.execPath, [new URL("./run.ts", import.meta.url).pathname], {
      stdio: "inherit",
    }).once("exit", () => resolve());
  });
}
