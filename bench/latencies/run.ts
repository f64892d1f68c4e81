// The timing targets that tests no longer assert (a test on a busy machine waits for events and
// never measures time), side by side with what each is measured against:
//
//  1. failing open: what a decision costs when the budget store is down — Redis with
//     nothing listening, Redis that never completes its handshake, a store that never answers
//     (storeTimeoutMs 50) — beside the memory store. Target: about 50 ms at most.
//  2. the runner's ends of an episode: how far past its deadline an episode with a player that
//     ignores SIGTERM ends, how soon a game that exits before it is healthy fails the episode,
//     and how soon a silent game fails it after the health timeout — beside a whole episode.
//  3. freshness across replicas: how soon a second replica (its event poll ten minutes away)
//     shows a new standings row, against the cache's REVALIDATE_MS; and with Redis, how soon an
//     event recorded on one replica reaches a WebSocket subscriber of the other.
//
//   node bench/latencies/run.ts          (REDIS_URL=redis://127.0.0.1:6379 for the Redis parts)
//   BENCH_SAMPLES=20 BENCH_ONLY=fail-open|episodes|replicas node bench/latencies/run.ts
//
// Not a test: numbers depend on the machine.
import { createServer, type Socket } from "node:net";

import { USER_CAPACITIES } from "@gauntlet/core";
import { runEpisode } from "@gauntlet/runner";
import {
  bundledPlayer,
  gridrushDir,
  gridrushEpisode,
  gridrushManifest,
  inline,
  removeWorkDirs,
} from "@gauntlet/runner/testing";
import {
  createLimiter,
  MemoryBudgetStore,
  RedisBudgetStore,
  REVALIDATE_MS,
  type BudgetStore,
} from "@gauntlet/server/bench";
import {
  client,
  createTestLeague,
  createTestStore,
  openSocket,
  startTestServer,
} from "@gauntlet/server/testing";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 10);
const ONLY = process.env.BENCH_ONLY;
const REDIS_URL = process.env.REDIS_URL;

interface Figure {
  name: string;
  samples: number[];
  target?: string;
}

function summary(f: Figure): string {
  const sorted = [...f.samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return `${f.name.padEnd(58)} ${mean.toFixed(1).padStart(8)} ${at(0.5).toFixed(1).padStart(8)} ${at(0.95).toFixed(1).padStart(8)}   ${f.target ?? ""}`;
}

function print(title: string, figures: Figure[]): void {
  process.stdout.write(
    `\n${title}\n${"".padEnd(58)} ${"mean ms".padStart(8)} ${"p50".padStart(8)} ${"p95".padStart(8)}   target\n`,
  );
  for (const f of figures) process.stdout.write(`${summary(f)}\n`);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function failOpen(): Promise<void> {
  const alice = { budgetKey: "user_alice", kind: "user" as const };
  const limiterWith = (store: BudgetStore, storeTimeoutMs?: number) =>
    createLimiter({
      mode: "enforced",
      store,
      capacities: { user: USER_CAPACITIES, machine: USER_CAPACITIES },
      documentationUrl: "http://x/docs",
      ...(storeTimeoutMs ? { storeTimeoutMs } : {}),
      breaker: { failures: 1_000_000, cooldownMs: 1 },
    });
  const measure = async (
    name: string,
    store: BudgetStore,
    storeTimeoutMs?: number,
  ): Promise<Figure> => {
    const limiter = limiterWith(store, storeTimeoutMs);
    const samples: number[] = [];
    try {
      for (let i = 0; i < SAMPLES; i++)
        samples.push(await timed(() => limiter.evaluate(alice, 10)));
    } finally {
      await limiter.close();
    }
    return { name, samples, target: name.startsWith("memory") ? "baseline" : "≤ ~50 ms" };
  };
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const hanging: BudgetStore = {
    decide: () => new Promise(() => undefined),
    close: async () => undefined,
  };
  try {
    print("1. failing open: one decision with the budget store down", [
      await measure("memory store (up)", new MemoryBudgetStore()),
      await measure(
        "Redis, nothing listening",
        new RedisBudgetStore({ url: "redis://127.0.0.1:1" }),
      ),
      await measure(
        "Redis, handshake never completes",
        new RedisBudgetStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 200 }),
      ),
      {
        ...(await measure("a store that never answers (storeTimeoutMs 50)", hanging, 50)),
        target: "≈ storeTimeoutMs (50 ms)",
      },
    ]);
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
}

async function episodes(): Promise<void> {
  const manifest = gridrushManifest();
  const stubborn = {
    runnable: inline("process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"),
    cwd: gridrushDir,
  };
  const figures: Figure[] = [
    { name: "a whole episode (greedy vs random, 15 turns)", samples: [], target: "reference" },
    {
      name: "past the deadline, a player ignoring SIGTERM (1500 ms)",
      samples: [],
      target: "≈ kill grace (200 ms)",
    },
    {
      name: "a game that exits before it is healthy",
      samples: [],
      target: "≪ health timeout (15 s)",
    },
    { name: "past the health timeout, a silent game (400 ms)", samples: [], target: "small" },
  ];
  const silentGame = {
    ...manifest,
    game: {
      ...manifest.game,
      runnable: { type: "game" as const, ...inline("setInterval(() => {}, 1000)") },
    },
  };
  const brokenGame = {
    ...manifest,
    game: { ...manifest.game, runnable: { type: "game" as const, ...inline("process.exit(7)") } },
  };
  try {
    for (let i = 0; i < SAMPLES; i++) {
      figures[0]?.samples.push((await runEpisode(gridrushEpisode().input)).timings.totalMs);
      const late = await runEpisode(
        gridrushEpisode({
          players: [bundledPlayer(manifest, "greedy"), stubborn],
          gameConfig: { connect_timeout_ms: 600_000 },
          deadlineMs: 1_500,
          killGraceMs: 200,
        }).input,
      );
      figures[1]?.samples.push(late.timings.totalMs - 1_500);
      figures[2]?.samples.push(
        (await runEpisode(gridrushEpisode({ manifest: brokenGame }).input)).timings.totalMs,
      );
      figures[3]?.samples.push(
        (await runEpisode(gridrushEpisode({ manifest: silentGame, healthTimeoutMs: 400 }).input))
          .timings.totalMs - 400,
      );
      removeWorkDirs();
    }
  } finally {
    removeWorkDirs();
  }
  print("2. the runner's ends of an episode", figures);
}

async function replicas(): Promise<void> {
  const figures: Figure[] = [];
  const shared = await createTestStore();
  const env = {
    GAUNTLET_SCHEDULER: "off",
    GAUNTLET_EVENTS_POLL_MS: "600000",
    ...(REDIS_URL ? { REDIS_URL, GAUNTLET_EVENTS_CHANNEL: `gauntlet:bench:${Date.now()}` } : {}),
  };
  const a = await startTestServer({ testStore: shared, env });
  const b = await startTestServer({
    testStore: { ...shared, store: { ...shared.store, close: async () => undefined } },
    env: REDIS_URL ? env : { ...env, REDIS_URL: "" },
  });
  try {
    const tl = await createTestLeague(a);
    const division = tl.divisions[0]?.id ?? "";
    const rows = async () =>
      (
        (await client(b.url).get<unknown[] | null>(`/v2/divisions/${division}/leaderboard`)).body ??
        []
      ).length;
    const fresh: Figure = {
      name: "a new standings row on the other replica",
      samples: [],
      target: `≤ REVALIDATE_MS (${REVALIDATE_MS} ms)${REDIS_URL ? ", sooner with Redis" : ""}`,
    };
    const socket = openSocket(b.url);
    await socket.subscribe([`league:${tl.league.id}`]);
    const delivered: Figure = {
      name: "an event on one replica to a subscriber of the other",
      samples: [],
      target: REDIS_URL ? "Redis pub/sub: tens of ms" : "no Redis: the poll (skipped)",
    };
    for (let i = 0; i < SAMPLES; i++) {
      const before = await rows();
      const seen = socket.messages.length;
      const started = performance.now();
      await tl.submit(await tl.addPlayer(`P${i}`));
      const written = performance.now();
      if (REDIS_URL) {
        await socket.next(
          (m) => socket.messages.indexOf(m) >= seen && m.type === "submission_placed",
        );
        delivered.samples.push(performance.now() - written);
      }
      while ((await rows()) === before) await new Promise((resolve) => setTimeout(resolve, 5));
      fresh.samples.push(performance.now() - started);
    }
    socket.close();
    figures.push(fresh);
    if (REDIS_URL) figures.push(delivered);
  } finally {
    await b.close();
    await a.close();
    await shared.cleanup();
  }
  print("3. freshness across replicas", figures);
}

if (!ONLY || ONLY === "fail-open") await failOpen();
if (!ONLY || ONLY === "episodes") await episodes();
if (!ONLY || ONLY === "replicas") await replicas();
