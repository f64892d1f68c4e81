// Rounds per minute of a league run by its coworld's own commissioner, sandboxed on a real runner
// process and reached over the runner's relay, beside the same league run by the built-in
// scheduler, in one run; and the commissioner's start-up cost per round.
//
// One server (the scheduler on, its 1 s tick; `GAUNTLET_COMMISSIONER_SCHEDULE_MS` short, so the
// driver asks for the next round as soon as a division is free — its default, 60 s, would cap a
// commissioned league at a round a minute by design) and one runner process (concurrency 1, the
// sandbox runtime, its commissioner lane of 2). Two leagues of the same coworld files (GridRush
// with the commissioner fixture, testing/commissioner-fixture.ts), the same two players (greedy
// and random baselines) and the same game (5 turns on 5×5): one run by the fixture — a round is
// one episode of the pair, ranked by name — and one by the built-in ladder, round robin, one
// episode a pairing. Each plays one round first (the runner's caches warm), then blocks of
// BENCH_BLOCK_SECONDS alternate between them, only one league unpaused at a time; a block's rate
// is the rounds completed within it per minute.
//
// Start-up: each commissioner job (a scheduling session, then a round session, per round) from
// its queueing (`created_at`) to its lease (`leased_at`) and to the runner's relay attaching
// (the relay's `cj-attach` on the play bus, read here from Redis).
//
//   REDIS_URL=redis://127.0.0.1:6379 node bench/commissioner/run.ts
//   BENCH_BLOCK_SECONDS=30 BENCH_BLOCKS=4 node bench/commissioner/run.ts
//
// Not a test: numbers depend on the machine.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";

import { createClient } from "redis";

import type { RoundPage } from "@gauntlet/core";
import {
  client,
  commissionerBundle,
  createTestLeague,
  eventually,
  FIXTURE_RUNNABLE_ID,
  fixtureCommissioner,
  startRunnerProcess,
  startTestServer,
  type TestLeague,
} from "@gauntlet/server/testing";

const BLOCK_MS = Number(process.env.BENCH_BLOCK_SECONDS ?? 20) * 1000;
/** Blocks per league, alternating. */
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 2);
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const CHANNEL = `gauntlet-bench-commissioner-${randomBytes(4).toString("hex")}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const ms = (n: number) => `${Math.round(n)} ms`;
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

// The relay's attach messages, with the time each arrived.
const attachedAt = new Map<string, number>();
const subscriber = createClient({ url: REDIS_URL });
await subscriber.connect();
await subscriber.subscribe(`${CHANNEL}:play`, (text) => {
  const message = JSON.parse(text) as { t?: string; j?: string };
  if (message.t === "cj-attach" && message.j) attachedAt.set(message.j, Date.now());
});

const t = await startTestServer({
  env: {
    REDIS_URL,
    GAUNTLET_EVENTS_CHANNEL: CHANNEL,
    GAUNTLET_COMMISSIONER_SCHEDULE_MS: "50",
    GAUNTLET_USER_CAPACITIES: JSON.stringify({
      requestsPerMinute: 1e9,
      requestsPerHour: 1e9,
      complexityPerMinute: 1e9,
      complexityPerHour: 1e9,
    }),
  },
  config: { validateResponses: false },
});
const runner = await startRunnerProcess(t, "bench-commissioner", 1);
const db = t.server.store.db;

interface Variant {
  name: string;
  tl: TestLeague;
  rates: number[];
  rounds: number;
  failed: number;
  /** Per round completed in a block: previous round's end → created → started → completed. */
  gaps: { idle: number[]; start: number[]; play: number[] };
}

async function league(commissioned: boolean): Promise<TestLeague> {
  const tl = await createTestLeague(t, {
    bundle: await commissionerBundle(),
    manifest: { commissioner: fixtureCommissioner(1_000_000, {}) },
    ...(commissioned
      ? { commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID } }
      : {}),
  });
  await paused(tl, true);
  for (const [name, baseline] of [
    ["Ada", "greedy"],
    ["Zed", "random"],
  ] as const)
    await tl.submit(await tl.addPlayer(name, { baseline }));
  return tl;
}

async function paused(tl: TestLeague, value: boolean): Promise<void> {
  const res = await client(t.url, tl.commissioner.token).post(
    `/v2/leagues/${tl.league.id}/rounds-paused`,
    { paused: value },
  );
  if (res.status !== 200) throw new Error(`rounds-paused: ${res.status} ${res.text}`);
}

async function rounds(tl: TestLeague): Promise<RoundPage["entries"]> {
  const res = await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${tl.league.id}&limit=100`);
  if (res.status !== 200) throw new Error(`rounds: ${res.status} ${res.text}`);
  return res.body.entries;
}

/** Paused, and no round of it running (a pending one waits for the next block). */
async function quiet(tl: TestLeague): Promise<void> {
  await paused(tl, true);
  await eventually(
    `${tl.league.name}'s running round to settle`,
    async () => (await rounds(tl)).every((r) => r.status !== "running"),
    120_000,
  );
}

try {
  const commissioner: Variant = {
    name: "coworld commissioner (sandboxed)",
    tl: await league(true),
    rates: [],
    rounds: 0,
    failed: 0,
    gaps: { idle: [], start: [], play: [] },
  };
  const builtin: Variant = {
    name: "built-in scheduler (ladder)",
    tl: await league(false),
    rates: [],
    rounds: 0,
    failed: 0,
    gaps: { idle: [], start: [], play: [] },
  };
  // Warm-up: a round of each (the coworld's and the policies' bundles reach the runner's cache;
  // the commissioner's migration handshake runs once).
  for (const v of [commissioner, builtin]) {
    await paused(v.tl, false);
    await eventually(
      `a first round of ${v.name} (runner: ${runner.output().slice(-800)})`,
      async () => (await rounds(v.tl)).some((r) => r.status === "completed"),
      180_000,
    );
    await quiet(v.tl);
  }
  const warmJobs = new Set(
    (await db.selectFrom("commissioner_jobs").select("id").execute()).map((r) => r.id),
  );

  process.stdout.write(
    `blocks of ${BLOCK_MS / 1000} s, ${BLOCKS} per league, alternating; load ${loadAverage()}\n`,
  );
  const windows: { from: number; to: number }[] = [];
  for (let block = 0; block < BLOCKS; block += 1)
    for (const v of block % 2 === 0 ? [commissioner, builtin] : [builtin, commissioner]) {
      const from = Date.now();
      await paused(v.tl, false);
      await sleep(BLOCK_MS);
      const to = Date.now();
      await quiet(v.tl);
      const all = await rounds(v.tl);
      const done = all.filter((r) => {
        const at = Date.parse(r.completed_at ?? "");
        return at >= from && at <= to;
      });
      const completed = done.filter((r) => r.status === "completed").length;
      v.rounds += completed;
      v.failed += done.length - completed;
      v.rates.push((completed * 60_000) / (to - from));
      for (const r of done) {
        const previous = all.find((p) => p.round_number === r.round_number - 1);
        const created = Date.parse(r.created_at);
        const started = Date.parse(r.started_at ?? r.created_at);
        if (previous?.completed_at && Date.parse(previous.completed_at) >= from)
          v.gaps.idle.push(created - Date.parse(previous.completed_at));
        v.gaps.start.push(started - created);
        v.gaps.play.push(Date.parse(r.completed_at ?? "") - started);
      }
      if (v === commissioner) windows.push({ from, to });
      process.stdout.write(
        `  ${v.name.padEnd(34)} ${completed} rounds in ${((to - from) / 1000).toFixed(1)} s (${(v.rates.at(-1) ?? 0).toFixed(1)}/min)${done.length > completed ? `, ${done.length - completed} failed` : ""}; load ${loadAverage()}\n`,
      );
    }

  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const c = mean(commissioner.rates);
  const b = mean(builtin.rates);
  process.stdout.write(`\nrounds per minute (mean of the blocks)\n`);
  process.stdout.write(`  ${builtin.name.padEnd(34)} ${b.toFixed(1)}\n`);
  process.stdout.write(`  ${commissioner.name.padEnd(34)} ${c.toFixed(1)}\n`);
  process.stdout.write(`  commissioner / built-in             ${(c / b).toFixed(2)}\n`);

  process.stdout.write(
    `\nwhere a round's time goes (medians): previous round's end → created → started → completed\n`,
  );
  for (const v of [builtin, commissioner])
    process.stdout.write(
      `  ${v.name.padEnd(34)} ${ms(quantile(v.gaps.idle, 0.5))} → ${ms(quantile(v.gaps.start, 0.5))} → ${ms(quantile(v.gaps.play, 0.5))}\n`,
    );

  // Start-up of the commissioner jobs of the timed blocks.
  const jobs = (
    await db
      .selectFrom("commissioner_jobs")
      .select(["id", "purpose", "created_at", "leased_at", "outcome"])
      .where("league_id", "=", commissioner.tl.league.id)
      .execute()
  ).filter(
    (j) =>
      !warmJobs.has(j.id) &&
      windows.some((w) => Date.parse(j.created_at) >= w.from && Date.parse(j.created_at) <= w.to),
  );
  const lease: number[] = [];
  const attach: number[] = [];
  const leaseToAttach: number[] = [];
  for (const j of jobs) {
    const queued = Date.parse(j.created_at);
    const attached = attachedAt.get(j.id);
    if (j.leased_at) lease.push(Date.parse(j.leased_at) - queued);
    if (attached !== undefined) {
      attach.push(attached - queued);
      if (j.leased_at) leaseToAttach.push(attached - Date.parse(j.leased_at));
    }
  }
  const byPurpose = new Map<string, number>();
  for (const j of jobs) byPurpose.set(j.purpose, (byPurpose.get(j.purpose) ?? 0) + 1);
  process.stdout.write(
    `\ncommissioner jobs in the timed blocks: ${jobs.length} (${[...byPurpose].map(([p, n]) => `${n} ${p}`).join(", ")}), ${attach.length} attached\n`,
  );
  process.stdout.write(
    `  queued → leased          median ${ms(quantile(lease, 0.5))}  p90 ${ms(quantile(lease, 0.9))}\n`,
  );
  process.stdout.write(
    `  leased → relay attached  median ${ms(quantile(leaseToAttach, 0.5))}  p90 ${ms(quantile(leaseToAttach, 0.9))}\n`,
  );
  process.stdout.write(
    `  queued → relay attached  median ${ms(quantile(attach, 0.5))}  p90 ${ms(quantile(attach, 0.9))}\n`,
  );
  const perRound = commissioner.rounds
    ? attach.reduce((a, x) => a + x, 0) / commissioner.rounds
    : NaN;
  process.stdout.write(
    `  start-up per round (sum of its jobs' queued → attached): ${ms(perRound)}, ${(jobs.length / (commissioner.rounds || 1)).toFixed(2)} jobs a round\n`,
  );
  const roundTime = 60_000 / c - 60_000 / b;
  process.stdout.write(
    `  a commissioned round takes ${ms(roundTime)} longer than a built-in one (from the rates)\n`,
  );
} finally {
  await runner.stop();
  await t.close();
  await subscriber.quit();
}
