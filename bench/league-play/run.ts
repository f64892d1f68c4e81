// Issue 5 (league play) benchmarks, side by side in one run:
//
//  1. standings reads per second — GET /v2/divisions/{id}/leaderboard with a user token and the
//     budgets enforced (in memory), beside a bare hello-world route of the same server; with
//     response validation on (the default) and off. Target: standings ≥ 50% of hello.
//  2. the rating-update cost per settled episode — the pure update (applyRound) and the whole
//     settlement (settleRound: round results, ratings, standings, promotion check and events in
//     one transaction), for rounds of 190 and 1,770 episodes.
//  3. the time from an episode's completion (POST …/complete sent) to its WebSocket events
//     (episode_completed; standings_changed of the round it settled), on the in-process bus and
//     over Redis. Target: under 100 ms on loopback.
//
//   node bench/league-play/run.ts                     (SQLite; DATABASE_URL=postgres://… for PostgreSQL)
//   BENCH_SECONDS=5 REDIS_URL=redis://127.0.0.1:6379 node bench/league-play/run.ts
//   BENCH_ONLY=standings|ratings|latency node bench/league-play/run.ts
//
// Not a test: numbers depend on the machine. The load runs in a worker thread.
import { randomBytes } from "node:crypto";
import { cpus } from "node:os";
import { Worker } from "node:worker_threads";

import { parseLadderSettings, type LeasedJob, type TriggerRoundResponse } from "@gauntlet/core";
import type { StartOptions } from "@gauntlet/server";
import {
  applyRound,
  complete,
  lease,
  seatSubject,
  settleRound,
  type SettledEpisode,
} from "@gauntlet/server/bench";
import {
  byStrength,
  client,
  createTestLeague,
  eventually,
  openSocket,
  scriptedRunner,
  startTestServer,
  type TestLeague,
  type TestServer,
} from "@gauntlet/server/testing";

import type { LoadOptions, LoadResult } from "../shared/http-load.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const IN_FLIGHT = 32;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const STANDINGS_PLAYERS = 20;
const LATENCY_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const engine = process.env.DATABASE_URL ? "PostgreSQL" : "SQLite";
// Large budgets: the limiter decides every request (and sets its headers) but never refuses.
const BASE_ENV = {
  GAUNTLET_SCHEDULER: "off",
  GAUNTLET_USER_CAPACITIES: JSON.stringify({
    requestsPerMinute: 1e9,
    requestsPerHour: 1e9,
    complexityPerMinute: 1e9,
    complexityPerHour: 1e9,
  }),
};

function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("../shared/http-load.ts", import.meta.url), {
      workerData: options,
    });
    worker.once("message", (result: LoadResult) => resolve(result));
    worker.once("error", reject);
  });
}

function names(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `P${String(i).padStart(3, "0")}`);
}

function strengthOf(players: string[]): Record<string, number> {
  return Object.fromEntries(players.map((p, i) => [p, i]));
}

/** A division whose standings come from one settled round robin of `players` players. */
async function settledLeague(t: TestServer, players: number): Promise<TestLeague> {
  const tl = await createTestLeague(t, { settings: { max_episodes_per_round: 100_000 } });
  const roster = names(players);
  for (const name of roster) await tl.submit(await tl.addPlayer(name));
  const started = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  const roundId = started.body.rounds[0]?.id ?? "";
  const runner = await scriptedRunner(t);
  while ((await runner.runQueued(byStrength(strengthOf(roster)))).length > 0);
  await eventually(
    "the round to settle",
    async () =>
      (await client(t.url).get<{ status: string }>(`/v2/rounds/${roundId}`)).body.status ===
      "completed",
    60_000,
  );
  return tl;
}

async function standingsThroughput(): Promise<string[][]> {
  const hello: StartOptions["extraRoutes"] = (app) => {
    app.get("/bench/hello", async () => ({ hello: "world" }));
  };
  const validating = await startTestServer({ env: BASE_ENV, extraRoutes: hello });
  const shared = validating.testStore;
  const bare = await startTestServer({
    env: BASE_ENV,
    extraRoutes: hello,
    config: { validateResponses: false },
    testStore: { ...shared, store: { ...shared.store, close: async () => undefined } },
  });
  try {
    const tl = await settledLeague(validating, STANDINGS_PLAYERS);
    const division = tl.divisions[0]?.id ?? "";
    const reader = await validating.newUser();
    const rows: string[][] = [];
    for (const [label, server] of [
      ["validation on (default)", validating],
      ["validation off", bare],
    ] as const) {
      const base = `${server.url}/v2/divisions/${division}/leaderboard`;
      const targets = {
        hello: { url: `${server.url}/bench/hello`, token: null },
        standings: { url: base, token: reader.token },
        recent: { url: `${base}?include_recent_rounds=true`, token: reader.token },
      };
      const sizes: Record<string, number> = {};
      for (const [name, target] of Object.entries(targets)) {
        const probe = await fetch(target.url, {
          headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
        });
        sizes[name] = (await probe.arrayBuffer()).byteLength;
        if (target.token && probe.headers.get("x-ratelimit-outcome") !== "allowed")
          throw new Error("the standings read was not budgeted");
        await load({ ...target, concurrency: IN_FLIGHT, seconds: 0.5 });
      }
      // Interleaved repeats, median of each: the machine's other load falls on all targets alike.
      const samples: Record<string, number[]> = { hello: [], standings: [], recent: [] };
      for (let r = 0; r < REPEATS; r += 1) {
        for (const [name, target] of Object.entries(targets)) {
          const result = await load({ ...target, concurrency: IN_FLIGHT, seconds: SECONDS });
          if ((result.statuses[200] ?? 0) !== result.requests)
            throw new Error(`${name}: statuses ${JSON.stringify(result.statuses)}`);
          samples[name]?.push(result.requests / (result.elapsedMs / 1000));
        }
      }
      const h = median(samples.hello ?? []);
      const s = median(samples.standings ?? []);
      const w = median(samples.recent ?? []);
      const kib = (name: string) => `${((sizes[name] ?? 0) / 1024).toFixed(1)} KiB`;
      rows.push([
        label,
        `${Math.round(h)}/s`,
        `${Math.round(s)}/s (${kib("standings")})`,
        `${((s / h) * 100).toFixed(0)}%`,
        `${Math.round(w)}/s (${kib("recent")}), ${((w / h) * 100).toFixed(0)}%`,
      ]);
    }
    return rows;
  } finally {
    await bare.close();
    await validating.close();
  }
}

async function ratingCost(): Promise<string[][]> {
  const t = await startTestServer({ env: BASE_ENV });
  try {
    const rows: string[][] = [];
    for (const players of [20, 60]) {
      const tl = await createTestLeague(t, { settings: { max_episodes_per_round: 100_000 } });
      const roster = names(players);
      for (const name of roster) await tl.submit(await tl.addPlayer(name));
      const started = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
        `/v2/leagues/${tl.league.id}/trigger-round`,
        {},
      );
      const roundId = started.body.rounds[0]?.id ?? "";
      const { db, bus } = t.server.leaguePlay;
      const { blobs, secrets: box } = t.server.context;
      // Results recorded without the settle hook, so that settlement can be timed on its own.
      const jobs = await db
        .selectFrom("jobs as j")
        .innerJoin("episode_requests as e", "e.id", "j.episode_request_id")
        .select(["j.id", "e.id as episode"])
        .where("e.round_id", "=", roundId)
        .execute();
      const seats = await db
        .selectFrom("episode_participants as p")
        .innerJoin("players as pl", "pl.id", "p.player_id")
        .select(["p.episode_request_id", "p.position", "pl.name"])
        .where(
          "p.episode_request_id",
          "in",
          jobs.map((j) => j.episode),
        )
        .execute();
      const strength = strengthOf(roster);
      // Reports are bound to leases: the bench leases the round's jobs as one runner would.
      const leases = new Map(
        (await lease({ db, blobs, box }, "bench", "bench", jobs.length, ["process"])).map((j) => [
          j.job_id,
          j.lease_token,
        ]),
      );
      for (const job of jobs) {
        const mine = seats
          .filter((s) => s.episode_request_id === job.episode)
          .sort((a, b) => a.position - b.position);
        const proof = { machineId: "bench", token: leases.get(job.id) };
        await complete({ db, blobs, box }, job.id, proof, {
          scores: mine.map((s) => strength[s.name] ?? 0),
          winner_slot: 0,
          turns: 5,
          seed: 1,
        });
      }
      const episodes = jobs.length;

      const participants = await db
        .selectFrom("episode_participants as p")
        .innerJoin("episode_requests as e", "e.id", "p.episode_request_id")
        .select([
          "p.episode_request_id",
          "p.position",
          "p.player_id",
          "p.policy_version_id",
          "e.scores",
          "e.updated_at",
        ])
        .where("e.round_id", "=", roundId)
        .execute();
      const byEpisode = new Map<string, SettledEpisode>();
      for (const p of participants) {
        const scores = JSON.parse(p.scores) as number[];
        const entry = byEpisode.get(p.episode_request_id) ?? {
          at: new Date(p.updated_at),
          participants: [],
        };
        byEpisode.set(p.episode_request_id, {
          ...entry,
          participants: [
            ...entry.participants,
            { ...seatSubject(p.player_id, p.policy_version_id), score: scores[p.position] ?? 0 },
          ],
        });
      }
      const settled = [...byEpisode.values()];
      const settings = parseLadderSettings({ ladder: { ranking: "elo" } });
      const repeats = Math.max(20, Math.round(200_000 / episodes));
      const p0 = performance.now();
      for (let r = 0; r < repeats; r += 1) applyRound(new Map(), settled, settings);
      const pureUs = ((performance.now() - p0) * 1000) / (repeats * episodes);

      const s0 = performance.now();
      const outcome = await settleRound(db, bus, roundId);
      const settleMs = performance.now() - s0;
      if (!outcome.settled) throw new Error("the round did not settle");
      rows.push([
        `${players} players, round robin`,
        String(episodes),
        `${pureUs.toFixed(2)} µs`,
        `${settleMs.toFixed(0)} ms`,
        `${((settleMs * 1000) / episodes).toFixed(0)} µs`,
      ]);
    }
    return rows;
  } finally {
    await t.close();
  }
}

function median(values: number[]): number {
  return percentile(values, 50);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function eventLatency(label: string, env: Record<string, string>): Promise<string[][]> {
  const t = await startTestServer({ env: { ...BASE_ENV, ...env } });
  try {
    await t.server.leaguePlay.bus.ready();
    const tl = await createTestLeague(t);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const socket = openSocket(t.url);
    await socket.subscribe([`division:${tl.divisions[0]?.id ?? ""}`]);
    const runner = await scriptedRunner(t);
    const toEpisode: number[] = [];
    const toStandings: number[] = [];
    const http: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES + 5; i += 1) {
      const started = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
        `/v2/leagues/${tl.league.id}/trigger-round`,
        {},
      );
      const roundId = started.body.rounds[0]?.id ?? "";
      const [job]: LeasedJob[] = await runner.lease(1);
      if (!job) throw new Error("no job");
      const scores = job.players.map((p) => (p.display_name === "Ada" ? 1 + (i % 3) : i % 2));
      const t0 = performance.now();
      const status = await runner.complete(job, scores);
      const t1 = performance.now();
      if (status !== 200) throw new Error(`complete: ${status}`);
      await socket.next(
        (m) =>
          m.type === "episode_completed" &&
          (m.data as { episode_request_id: string }).episode_request_id === job.episode_request_id,
      );
      const te = performance.now();
      await socket.next(
        (m) =>
          m.type === "standings_changed" && (m.data as { round_id: string }).round_id === roundId,
      );
      const ts = performance.now();
      if (i < 5) continue; // warm-up
      http.push(t1 - t0);
      toEpisode.push(te - t0);
      toStandings.push(ts - t0);
    }
    socket.close();
    const cell = (values: number[]) =>
      `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)} / ${Math.max(...values).toFixed(1)} ms`;
    return [
      [`${label}: completion POST answered`, cell(http)],
      [`${label}: → episode_completed on the socket`, cell(toEpisode)],
      [`${label}: → standings_changed of the round it settled`, cell(toStandings)],
    ];
  } finally {
    await t.close();
  }
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  console.log(
    `League play benchmarks — ${engine}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${SECONDS} s per load cell\n`,
  );
  if (!only || only === "standings") {
    const throughput = await standingsThroughput();
    console.log(
      `1. Standings read vs hello world (same server; ${IN_FLIGHT} requests in flight from a worker thread; median of ${REPEATS} interleaved runs; standings: user token, budgets enforced in memory, ${STANDINGS_PLAYERS} rows)\n`,
    );
    console.log(
      table(
        [
          "responses",
          "GET /bench/hello",
          "GET …/leaderboard",
          "leaderboard / hello",
          "…?include_recent_rounds=true",
        ],
        throughput,
      ),
    );
  }
  if (!only || only === "ratings") {
    const cost = await ratingCost();
    console.log("\n2. Rating-update cost per settled episode (Elo, 2 seats per episode)\n");
    console.log(
      table(
        [
          "round",
          "episodes",
          "pure update per episode",
          "whole settlement",
          "settlement per episode",
        ],
        cost,
      ),
    );
  }
  if (!only || only === "latency") {
    const channel = `gauntlet:bench:${randomBytes(4).toString("hex")}`;
    const latency = [
      ...(await eventLatency("in-process bus", {})),
      ...(await eventLatency("Redis bus", {
        REDIS_URL,
        GAUNTLET_EVENTS_CHANNEL: channel,
        GAUNTLET_EVENTS_POLL_MS: "600000",
      })),
    ];
    console.log(
      `\n3. Completion → WebSocket event (${LATENCY_SAMPLES} one-episode rounds each; p50 / p95 / max from the completion POST being sent)\n`,
    );
    console.log(table(["path", "p50 / p95 / max"], latency));
  }
}

await main();
