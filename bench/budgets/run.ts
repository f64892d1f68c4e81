// Shared-budget decisions per second: Gauntlet's GCRA (pure function, memory store, Redis
// store) beside rate-limiter-flexible doing the same four-bucket workload (RateLimiterMemory
// and RateLimiterRedis, four limiters consumed together, as RateLimiterUnion does but with
// request buckets costing 1 and complexity buckets the request's complexity).
//
//   node bench/budgets/run.ts            (REDIS_URL defaults to redis://127.0.0.1:6379)
//   BENCH_SECONDS=5 node bench/budgets/run.ts
//
// Not a test: numbers depend on the machine. Run on an otherwise idle machine.
import { randomUUID } from "node:crypto";
import { availableParallelism, cpus } from "node:os";
import { Worker } from "node:worker_threads";

import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { createClient } from "redis";

import { decideBudget, USER_CAPACITIES, type BudgetState } from "@gauntlet/core";
import { MemoryBudgetStore, RedisBudgetStore, type BudgetStore } from "@gauntlet/server/bench";
import { startTestServer } from "@gauntlet/server/testing";

import type { LoadOptions, LoadResult } from "../shared/http-load.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
// Enough identities that no bucket empties during a run: every decision is an admission.
const IDENTITIES = Number(process.env.BENCH_IDENTITIES ?? 10_000);
const COST = 10;
const IN_FLIGHT = 32;
const KEYS = Array.from({ length: IDENTITIES }, (_, i) => `user_${i}`);

type Decide = (key: string) => Promise<boolean>;

interface Measured {
  perSecond: number;
  /** Share of decisions that admitted the request. */
  allowed: number;
}

/** Runs `decide` with `inFlight` callers for the time given. */
async function measure(decide: Decide, inFlight: number, seconds = SECONDS): Promise<Measured> {
  // Warm up the JIT and the connection.
  for (let i = 0; i < 2_000; i++) await decide(KEYS[i % IDENTITIES] ?? "");
  let done = 0;
  let allowed = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  async function caller(offset: number): Promise<void> {
    let i = offset;
    while (performance.now() < until) {
      // Check the clock every 64 decisions; it costs more than a memory decision.
      for (let j = 0; j < 64; j++) {
        if (await decide(KEYS[i % IDENTITIES] ?? "")) allowed++;
        i += inFlight;
      }
      done += 64;
    }
  }
  await Promise.all(Array.from({ length: inFlight }, (_, k) => caller(k)));
  return { perSecond: done / ((performance.now() - started) / 1000), allowed: allowed / done };
}

/** The pure decision with no store and no promise: the arithmetic alone. */
function measurePure(seconds = SECONDS): Measured {
  const states = Array.from<BudgetState | undefined>({ length: IDENTITIES });
  let now = Date.now();
  let allowed = 0;
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  while (performance.now() < until) {
    for (let j = 0; j < 10_000; j++) {
      const i = done % IDENTITIES;
      // A fake clock, 1 µs a decision: each identity is asked 10 times a second.
      now += 0.001;
      const d = decideBudget(states[i], USER_CAPACITIES, COST, now);
      if (d.allowed) {
        states[i] = d.state;
        allowed++;
      }
      done++;
    }
  }
  return { perSecond: done / ((performance.now() - started) / 1000), allowed: allowed / done };
}

function gauntlet(store: BudgetStore): Decide {
  return async (key) => (await store.decide(key, USER_CAPACITIES, COST, true)).allowed;
}

/** The four buckets as four rate-limiter-flexible limiters, all consumed for every request. */
function flexibleUnion(
  make: (points: number, duration: number, name: string) => RateLimiterAbstract,
): Decide {
  const requestsMinute = make(USER_CAPACITIES.requestsPerMinute, 60, "rm");
  const requestsHour = make(USER_CAPACITIES.requestsPerHour, 3600, "rh");
  const complexityMinute = make(USER_CAPACITIES.complexityPerMinute, 60, "cm");
  const complexityHour = make(USER_CAPACITIES.complexityPerHour, 3600, "ch");
  const rejected = () => false;
  return async (key) => {
    const results = await Promise.all([
      requestsMinute.consume(key, 1).then(() => true, rejected),
      requestsHour.consume(key, 1).then(() => true, rejected),
      complexityMinute.consume(key, COST).then(() => true, rejected),
      complexityHour.consume(key, COST).then(() => true, rejected),
    ]);
    return results.every(Boolean);
  };
}

/**
 * Requests per second of the real server (GET /whoami with a user token, complexity 1) with the
 * limiter off, enforced in memory, and enforced in Redis. The load runs in a worker thread.
 * Capacities are raised so that every request is admitted: the cost measured is the evaluation.
 * The three servers run side by side and take turns, best of three rounds, so that drift in
 * the machine's load falls on all of them alike.
 */
async function measureServerThroughput(): Promise<
  { setting: string; perSecond: number; statuses: Record<number, number> }[]
> {
  const huge = 1_000_000_000;
  const capacities = JSON.stringify({
    requestsPerMinute: huge,
    requestsPerHour: huge,
    complexityPerMinute: huge,
    complexityPerHour: huge,
  });
  const settings: [string, Record<string, string>][] = [
    ["limiter off", { GAUNTLET_RATE_LIMIT_MODE: "off" }],
    [
      "enforced, memory store",
      { GAUNTLET_RATE_LIMIT_MODE: "enforced", GAUNTLET_USER_CAPACITIES: capacities },
    ],
    [
      "enforced, Redis store",
      { GAUNTLET_RATE_LIMIT_MODE: "enforced", GAUNTLET_USER_CAPACITIES: capacities, REDIS_URL },
    ],
  ];
  const servers: Awaited<ReturnType<typeof startTestServer>>[] = [];
  try {
    const targets = [];
    for (const [setting, env] of settings) {
      const server = await startTestServer({ env });
      servers.push(server);
      const { token } = await server.newUser();
      // Wait for the budget store (Redis connects in the background).
      for (let i = 0; i < 100 && (await fetch(`${server.url}/readyz`)).status !== 200; i++)
        await new Promise((r) => setTimeout(r, 20));
      targets.push({
        setting,
        url: server.url,
        token,
        best: { perSecond: 0, statuses: {} as Record<number, number> },
      });
    }
    const load = (options: LoadOptions) =>
      new Promise<LoadResult>((resolve, reject) => {
        const worker = new Worker(new URL("../shared/http-load.ts", import.meta.url), {
          workerData: options,
        });
        worker.once("message", (result: LoadResult) => resolve(result));
        worker.once("error", reject);
      });
    for (const target of targets)
      await load({
        url: `${target.url}/whoami`,
        token: target.token,
        concurrency: IN_FLIGHT,
        seconds: 0.5,
      });
    for (let round = 0; round < 3; round++) {
      for (const target of targets) {
        const result = await load({
          url: `${target.url}/whoami`,
          token: target.token,
          concurrency: IN_FLIGHT,
          seconds: SECONDS,
        });
        const perSecond = result.requests / (result.elapsedMs / 1000);
        if (perSecond > target.best.perSecond)
          target.best = { perSecond, statuses: result.statuses };
      }
    }
    return targets.map((t) => ({ setting: t.setting, ...t.best }));
  } finally {
    for (const server of servers) await server.close();
  }
}

function format(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

async function main(): Promise<void> {
  const rows: { workload: string; gauntlet: Measured; peer: Measured | null }[] = [];
  const log = (line: string) => process.stderr.write(`${line}\n`);

  log("pure function…");
  rows.push({
    workload: "pure decision (no store, no promise)",
    gauntlet: measurePure(),
    peer: null,
  });

  log("memory stores…");
  const memory = new MemoryBudgetStore();
  rows.push({
    workload: "memory store, sequential",
    gauntlet: await measure(gauntlet(memory), 1),
    peer: await measure(
      flexibleUnion(
        (points, duration, name) => new RateLimiterMemory({ points, duration, keyPrefix: name }),
      ),
      1,
    ),
  });
  await memory.close();

  log("Redis stores…");
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const redisStore = new RedisBudgetStore({ url: REDIS_URL, keyPrefix: `${prefix}g:` });
  const peerClient = createClient({ url: REDIS_URL });
  await Promise.all([redisStore.ready, peerClient.connect()]);
  const peer = flexibleUnion(
    (points, duration, name) =>
      new RateLimiterRedis({
        storeClient: peerClient,
        useRedisPackage: true,
        points,
        duration,
        keyPrefix: `${prefix}f:${name}`,
      }),
  );
  for (const inFlight of [1, IN_FLIGHT]) {
    rows.push({
      workload: `Redis store, ${inFlight === 1 ? "sequential" : `${inFlight} in flight`}`,
      gauntlet: await measure(gauntlet(redisStore), inFlight),
      peer: await measure(peer, inFlight),
    });
  }
  await redisStore.close();
  for await (const keys of peerClient.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    if (keys.length > 0) await peerClient.del(keys);
  }
  await peerClient.close();

  const cpu = cpus()[0]?.model ?? "unknown CPU";
  console.log(
    `\nShared-budget decisions per second — ${cpu}, ${availableParallelism()} cores, Node ${process.versions.node}, ${SECONDS} s each`,
  );
  console.log(
    `Workload: ${IDENTITIES} user identities round-robin, complexity ${COST}, docs/architecture.md user capacities; all four buckets per decision.\n`,
  );
  const header = ["workload", "gauntlet (GCRA)", "rate-limiter-flexible", "ratio"];
  const cell = (m: Measured) =>
    `${format(m.perSecond)}${m.allowed < 1 ? ` (${(m.allowed * 100).toFixed(0)}% allowed)` : ""}`;
  const table = rows.map((r) => [
    r.workload,
    cell(r.gauntlet),
    r.peer === null ? "—" : cell(r.peer),
    r.peer === null ? "—" : `${(r.gauntlet.perSecond / r.peer.perSecond).toFixed(2)}×`,
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...table.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(
    `|${widths.map((w, i) => (i === 0 ? `${"-".repeat(w + 1)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`,
  );
  for (const row of table) console.log(line(row));
  console.log(
    "\nratio = gauntlet / rate-limiter-flexible (higher is faster). The peer's four limiters are fixed-window",
  );
  console.log(
    "counters consumed independently (one EVAL each on Redis, four commands a decision); Gauntlet's decision",
  );
  console.log("is one EVALSHA that checks and debits all four buckets or none.");

  log("server throughput…");
  let server: Awaited<ReturnType<typeof measureServerThroughput>>;
  try {
    server = await measureServerThroughput();
  } catch (error) {
    console.log(
      `\nServer throughput: not measured, the server did not start (${error instanceof Error ? error.message : String(error)}).`,
    );
    return;
  }
  const off = server[0]?.perSecond ?? 1;
  console.log(
    `\nServer: GET /whoami with a user token, ${IN_FLIGHT} keep-alive connections from a worker thread, best of 3 × ${SECONDS} s\n`,
  );
  console.log("| limiter                | requests/s | vs off | statuses |");
  console.log("|------------------------|-----------:|-------:|----------|");
  for (const r of server) {
    const statuses = Object.entries(r.statuses)
      .map(([code, n]) => `${code}: ${n}`)
      .join(", ");
    console.log(
      `| ${r.setting.padEnd(22)} | ${format(r.perSecond).padStart(10)} | ${(r.perSecond / off).toFixed(2).padStart(5)}× | ${statuses} |`,
    );
  }
}

await main();
