// Issue 17: the hot path. Requests per second of the reads every watcher, CLI and agent makes,
// side by side in one run with a bare `node:http` JSON hello and a bare fastify JSON route that
// this script starts itself, and each row's ratio to bare node:http:
//
//   bare node:http hello | bare fastify hello | GET /healthz | GET /whoami, anonymous
//   GET /v2/divisions/{id}/leaderboard, anonymous | GET /whoami with a token | the leaderboard with a token
//
// The real server runs as `gauntlet-server start` would (its default logger and log level),
// on SQLite in a temporary directory (DATABASE_URL=postgres://… for PostgreSQL), REDIS_URL for
// budgets and events in Redis, with the demo league after one settled round and a user token;
// budgets enforced with capacities raised so that nothing is rejected (every row must be all
// 200s). The load (32 keep-alive connections) runs in a child process (load.ts).
//
//   node bench/hot-path/run.ts
//   BENCH_SECONDS=5 BENCH_REPEATS=5 node bench/hot-path/run.ts
//   BENCH_PROFILE=1 node bench/hot-path/run.ts   the real server's rows only, for --cpu-prof
//   BENCH_ONLY="with a token" node bench/hot-path/run.ts   only the rows whose name has that text
//   BENCH_HISTORY=1 node bench/hot-path/run.ts     adds the leaderboard after 1,000 and 100,000 past episodes
//   BENCH_SOAK_SECONDS=600 node --expose-gc bench/hot-path/run.ts   first, memory under 10 minutes of reads
//
// Not a test: numbers depend on the machine. Rows are interleaved and each figure is the median
// of its repeats, so the machine's other load falls on every row alike.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";

import Fastify from "fastify";

import type { RunningServer } from "@gauntlet/server";
import { createTestStore } from "@gauntlet/server/testing";

import type { LoadResult, LoadSpec } from "./load.ts";
import { bareNode, capture, HELLO, realServer } from "./servers.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const CONNECTIONS = 32;
const PROFILE = process.env.BENCH_PROFILE === "1";
const exec = promisify(execFile);

async function load(spec: LoadSpec): Promise<LoadResult> {
  const { stdout } = await exec(process.execPath, [
    new URL("./load.ts", import.meta.url).pathname,
    JSON.stringify(spec),
  ]);
  return JSON.parse(stdout) as LoadResult;
}

async function bareFastify(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get("/", async () => ({ hello: "world" }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`,
    close: () => app.close(),
  };
}

/**
 * Past episodes and rounds written straight into the store (as settled rounds would leave them)
 * for one division, so that its standings read can be compared with a division of a short past.
 */
async function seedHistory(
  server: RunningServer,
  divisionId: string,
  episodes: number,
): Promise<void> {
  const { db } = server.store;
  const division = await db
    .selectFrom("divisions")
    .select(["id", "league_id"])
    .where("id", "=", divisionId)
    .executeTakeFirstOrThrow();
  const coworld = await db
    .selectFrom("rounds")
    .select(["coworld_id", "round_number"])
    .where("division_id", "=", divisionId)
    .orderBy("round_number", "desc")
    .executeTakeFirstOrThrow();
  const user = await db.selectFrom("users").select("id").executeTakeFirstOrThrow();
  const perRound = 100;
  const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
  for (let r = 0; r < episodes / perRound; r += 1) {
    const roundId = `round_${randomUUID()}`;
    await db
      .insertInto("rounds")
      .values({
        id: roundId,
        league_id: division.league_id,
        division_id: divisionId,
        round_number: coworld.round_number + 1 + r,
        status: "completed",
        active: null,
        commissioner_key: "default",
        execution_backend: "runners",
        coworld_id: coworld.coworld_id,
        round_config: "{}",
        round_display: "{}",
        episode_count: perRound,
        error: null,
        started_at: at,
        completed_at: at,
        created_at: at,
      })
      .execute();
    await db
      .insertInto("episode_requests")
      .values(
        Array.from({ length: perRound }, (_, e) => ({
          id: `ereq_${randomUUID()}`,
          requester_user_id: user.id,
          purpose: "round",
          coworld_id: coworld.coworld_id,
          league_id: division.league_id,
          division_id: divisionId,
          round_id: roundId,
          pool_id: null,
          experience_request_id: null,
          bulk_upload_id: null,
          game_config: "{}",
          seed: e,
          max_steps: null,
          status: "completed" as const,
          job_id: null,
          error_type: null,
          error: null,
          failed_policy_index: null,
          results: "{}",
          scores: "[]",
          change_seq: 0,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
}

/**
 * Memory under a sustained read load (issue 17): the authenticated leaderboard read for
 * `seconds`, with the server's heap (after a full collection, when run with --expose-gc) and
 * RSS printed every 30 s. Flat means the last figures are within noise of the first.
 */
async function soak(
  seconds: number,
  spec: Omit<LoadSpec, "connections" | "seconds">,
): Promise<void> {
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const collect = (globalThis as { gc?: () => void }).gc;
  process.stdout.write(
    `\nsoak: the token leaderboard read for ${seconds} s${collect ? "" : " (heap without a forced GC: run node with --expose-gc)"}\n`,
  );
  process.stdout.write(
    `${"elapsed s".padStart(9)} ${"requests".padStart(10)} ${"req/s".padStart(7)} ${"heap MiB".padStart(9)} ${"RSS MiB".padStart(8)}\n`,
  );
  const started = performance.now();
  let total = 0;
  for (let done = 0; done < seconds;) {
    const chunk = Math.min(30, seconds - done);
    const result = await load({ ...spec, connections: CONNECTIONS, seconds: chunk });
    if ((result.statuses["200"] ?? 0) !== result.requests)
      throw new Error(`soak: statuses ${JSON.stringify(result.statuses)}`);
    done += chunk;
    total += result.requests;
    collect?.();
    const { heapUsed, rss } = process.memoryUsage();
    const elapsed = (performance.now() - started) / 1000;
    process.stdout.write(
      `${elapsed.toFixed(0).padStart(9)} ${String(total).padStart(10)} ${Math.round(
        result.requests / chunk,
      )
        .toString()
        .padStart(7)} ${mib(heapUsed).padStart(9)} ${mib(rss).padStart(8)}\n`,
    );
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

// A temporary SQLite file, or with DATABASE_URL a PostgreSQL schema of its own, dropped at the end.
const testStore = await createTestStore();
const node = await bareNode(HELLO);
const fastify = await bareFastify();
const real = await realServer(testStore);
const auth = { authorization: `Bearer ${real.token}` };
const leaderboard = `${real.server.url}/v2/divisions/${real.division}/leaderboard`;
// The floor: node:http replaying the authenticated leaderboard's own bytes (its body and the
// budget headers of docs/api.md, "Conventions"), with none of the work that produces them.
const replay = await bareNode(await capture(leaderboard, auth));
// Issue 17: a standings read costs the same whatever the division's past. BENCH_HISTORY=1 adds
// two rows: the demo's two divisions after 1,000 and 100,000 past episodes (10 and 1,000 rounds).
const HISTORY = process.env.BENCH_HISTORY === "1";
if (HISTORY) {
  await seedHistory(real.server, real.other, 1_000);
  await seedHistory(real.server, real.division, 100_000);
}
try {
  const rows: {
    name: string;
    spec: Omit<LoadSpec, "connections" | "seconds">;
    budgeted?: boolean;
  }[] = [
    ...(PROFILE
      ? []
      : [
          { name: "bare node:http hello", spec: { url: node.url } },
          { name: "bare fastify hello", spec: { url: fastify.url } },
          {
            name: "bare node:http, the token leaderboard's bytes",
            spec: { url: replay.url, headers: auth },
          },
        ]),
    { name: "GET /healthz", spec: { url: `${real.server.url}/healthz` } },
    { name: "GET /whoami, anonymous", spec: { url: `${real.server.url}/whoami` } },
    { name: "GET /v2/divisions/{id}/leaderboard, anonymous", spec: { url: leaderboard } },
    {
      name: "GET /whoami with a token",
      spec: { url: `${real.server.url}/whoami`, headers: auth },
      budgeted: true,
    },
    {
      name: "GET /v2/divisions/{id}/leaderboard with a token",
      spec: { url: leaderboard, headers: auth },
      budgeted: true,
    },
    ...(HISTORY
      ? [
          {
            name: "leaderboard with a token, 1,000 past episodes",
            spec: {
              url: `${real.server.url}/v2/divisions/${real.other}/leaderboard`,
              headers: auth,
            },
            budgeted: true,
          },
          {
            name: "leaderboard with a token, 100,000 past episodes",
            spec: { url: leaderboard, headers: auth },
            budgeted: true,
          },
        ]
      : []),
  ];
  // BENCH_ONLY=text keeps the rows whose name contains it (and the bare node:http base row).
  const only = process.env.BENCH_ONLY;
  if (only)
    rows.splice(
      0,
      rows.length,
      ...rows.filter((row, i) => (i === 0 && !PROFILE) || row.name.includes(only)),
    );
  for (const row of rows) {
    // The Redis budget store connects after the server starts: until then decisions are "unavailable".
    let probe = await fetch(row.spec.url, { headers: row.spec.headers ?? {} });
    for (
      let tries = 0;
      row.budgeted && tries < 100 && probe.headers.get("x-ratelimit-outcome") === "unavailable";
      tries += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      probe = await fetch(row.spec.url, { headers: row.spec.headers ?? {} });
    }
    await probe.arrayBuffer();
    if (probe.status !== 200) throw new Error(`${row.name}: ${probe.status}`);
    if (
      row.budgeted &&
      !process.env.BENCH_LIMITER &&
      probe.headers.get("x-ratelimit-outcome") !== "allowed"
    )
      throw new Error(
        `${row.name} was not budgeted (x-ratelimit-outcome ${probe.headers.get("x-ratelimit-outcome")})`,
      );
    await load({ ...row.spec, connections: CONNECTIONS, seconds: 0.5 });
  }
  const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 0);
  if (soakSeconds > 0) await soak(soakSeconds, { url: leaderboard, headers: auth });
  const samples = rows.map(() => [] as number[]);
  // CPU time of this process (every server under test lives in it; the loader does not) per
  // request: steadier than req/s on a shared machine, and it says what the server itself pays.
  const cpu = rows.map(() => [] as number[]);
  for (let r = 0; r < REPEATS; r += 1) {
    for (const [i, row] of rows.entries()) {
      const before = process.cpuUsage();
      const result = await load({ ...row.spec, connections: CONNECTIONS, seconds: SECONDS });
      const used = process.cpuUsage(before);
      cpu[i]?.push((used.user + used.system) / result.requests);
      if (process.env.BENCH_SPLIT)
        console.error(
          row.name,
          "user",
          (used.user / result.requests).toFixed(1),
          "sys",
          (used.system / result.requests).toFixed(1),
        );
      if ((result.statuses["200"] ?? 0) !== result.requests)
        throw new Error(`${row.name}: statuses ${JSON.stringify(result.statuses)}`);
      samples[i]?.push(result.requests / (result.elapsedMs / 1000));
    }
  }
  const engine = process.env.DATABASE_URL ? "PostgreSQL" : "SQLite";
  const budgets = process.env.REDIS_URL ? "Redis" : "memory";
  process.stdout.write(
    `\nhot path (${engine}, budgets enforced in ${budgets}; ${CONNECTIONS} connections, ${REPEATS}×${SECONDS} s, median req/s; Node ${process.version})\n`,
  );
  const base = median(samples[0] ?? []);
  process.stdout.write(
    `${"request".padEnd(50)} ${"req/s".padStart(8)}  ÷ bare node:http  server CPU µs/req\n`,
  );
  for (const [i, row] of rows.entries()) {
    const rate = median(samples[i] ?? []);
    const ratio = PROFILE ? "" : (rate / base).toFixed(2);
    process.stdout.write(
      `${row.name.padEnd(50)} ${Math.round(rate).toString().padStart(8)}  ${ratio.padEnd(16)}  ${median(cpu[i] ?? []).toFixed(1)}\n`,
    );
  }
} finally {
  await real.server.close();
  await fastify.close();
  node.close();
  replay.close();
  await testStore.cleanup();
}
