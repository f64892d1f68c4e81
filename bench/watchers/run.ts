// `bench watchers` (issue 44): how many live watchers one replica holds, what each costs, and how
// late the last one hears of a result. For each N (1,000, 5,000, 10,000): N real WebSocket
// clients (clients.ts, spread over BENCH_CLIENT_PROCESSES child processes) subscribed to one
// division of a league that settles a round every BENCH_ROUND_MS; the server is a replica in a
// process of its own, so its RSS and CPU time are read from /proc. Then the same with two
// replicas on PostgreSQL + Redis, half the watchers on each, the rounds completed on the first.
//
//   npx -y pnpm@10 bench watchers                    (raises the open-files limit to the hard one)
//   BENCH_WATCHERS=1000,10000 BENCH_ROUNDS=20 BENCH_MODES=one node bench/watchers/run.ts
//
// Not a test: the figures depend on the machine and its other load.
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";

import type { LeasedJob, TriggerRoundResponse } from "@gauntlet/core";
import {
  client,
  createTestLeague,
  createTestStore,
  scriptedRunner,
  startReplicaProcess,
  startTestServer,
  type ReplicaProcess,
} from "@gauntlet/server/testing";

import { percentile, spread, stageHeader, stageRow, traceTimes, type Stage } from "./breakdown.ts";
import type { ClientsTask, FromClients, ToClients } from "./clients.ts";

const SIZES = (process.env.BENCH_WATCHERS ?? "1000,5000,10000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
/** Client processes, each value a row of its own (side by side). */
const PROCESS_COUNTS = (process.env.BENCH_CLIENT_PROCESSES ?? "4").split(",").map(Number);
const MODES = (process.env.BENCH_MODES ?? "one,two").split(",");
/** The replica's GAUNTLET_EVENTS_LINGER_MS, each value a row of its own (side by side). */
const LINGERS = (process.env.BENCH_LINGER_MS ?? "").split(",").filter((v) => v !== "");
/** The replica's GAUNTLET_EVENTS_FANOUT_CHUNK, each value a row of its own (side by side). */
const CHUNKS = (process.env.BENCH_FANOUT_CHUNK ?? "").split(",").filter((v) => v !== "");
const PG_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const WARM_UP_ROUNDS = 3;
/** After the last round: time for the last deliveries (and resumes) to land. */
const DRAIN_MS = 3000;
const CLK_TCK = 100;
// Large budgets: the bench's own requests are never refused.
const BASE_ENV = {
  GAUNTLET_SCHEDULER: "off",
  GAUNTLET_USER_CAPACITIES: JSON.stringify({
    requestsPerMinute: 1e9,
    requestsPerHour: 1e9,
    complexityPerMinute: 1e9,
    complexityPerHour: 1e9,
  }),
};

function rssKb(pid: number): number {
  const found = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(found?.[1] ?? Number.NaN);
}

/** User + system CPU seconds of a process so far (system alone with `systemOnly`). */
function cpuSeconds(pid: number, systemOnly = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((systemOnly ? 0 : Number(fields[11])) + Number(fields[12])) / CLK_TCK;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function waitFor<T extends FromClients["type"]>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<FromClients, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`a client process sent no ${type} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const listen = (message: FromClients) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off("message", listen);
      resolve(message as Extract<FromClients, { type: T }>);
    };
    child.on("message", listen);
    child.once("exit", (code) => reject(new Error(`a client process exited (${code})`)));
  });
}

interface Figures {
  mode: string;
  linger: string;
  chunk: string;
  watchers: number;
  events: number;
  deliveries: number;
  p50: number;
  p99: number;
  lastP50: number;
  lastMax: number;
  kbPerWatcher: number;
  cpuUsPerDelivery: number;
  /** The kernel's share of it (on loopback it includes the clients' receiving). */
  systemShare: number;
  clientCpuShare: number;
  missed: number;
  drops: number;
  resumes: number;
  roundsPerSecond: number;
  stages: Stage[];
  /** Socket writes of the fan-out a round (one a watcher a batch of events). */
  writesPerRound: number;
  processes: number;
  /** The client processes' event loops' busy share over the rounds (each, mean). */
  clientElu: number;
}

async function measure(
  mode: "one" | "two",
  watchers: number,
  linger: string,
  chunk: string,
  PROCESSES: number,
): Promise<Figures> {
  const testStore = await createTestStore(mode === "two" ? PG_URL : undefined);
  // Builds the league over the API; idle afterwards (its scheduler is off, it has no watchers).
  const setup = await startTestServer({
    testStore: { ...testStore, store: { ...testStore.store, close: async () => undefined } },
    env: BASE_ENV,
  });
  const replicas: ReplicaProcess[] = [];
  const children: ChildProcess[] = [];
  try {
    const tl = await createTestLeague(setup);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const division = tl.divisions[0]?.id ?? "";
    const env: Record<string, string> = {
      ...BASE_ENV,
      ...(linger === "" ? {} : { GAUNTLET_EVENTS_LINGER_MS: linger }),
      ...(chunk === "" ? {} : { GAUNTLET_EVENTS_FANOUT_CHUNK: chunk }),
      GAUNTLET_BENCH_TRACE_EVENTS: "1",
      ...(mode === "two"
        ? { REDIS_URL, GAUNTLET_EVENTS_CHANNEL: `gauntlet:bench:${randomBytes(4).toString("hex")}` }
        : {}),
    };
    for (let i = 0; i < (mode === "two" ? 2 : 1); i += 1)
      replicas.push(await startReplicaProcess(testStore, env));
    const [writer] = replicas;
    if (!writer) throw new Error("no replica");
    const runner = await scriptedRunner({ ...setup, url: writer.url });
    const commissioner = client(writer.url, tl.commissioner.token);
    const episodeT0 = new Map<string, number>();
    const roundT0 = new Map<string, number>();
    const triggerT0 = new Map<string, number>();
    const playRound = async (i: number) => {
      const triggered = performance.timeOrigin + performance.now();
      const started = await commissioner.post<TriggerRoundResponse>(
        `/v2/leagues/${tl.league.id}/trigger-round`,
        {},
      );
      const roundId = started.body.rounds[0]?.id ?? "";
      triggerT0.set(roundId, triggered);
      const jobs: LeasedJob[] = await runner.lease(8);
      if (jobs.length === 0) throw new Error(`round ${i}: nothing to lease`);
      for (const job of jobs) {
        const scores = job.players.map((p) => (p.display_name === "Ada" ? 1 + (i % 3) : i % 2));
        const t0 = performance.timeOrigin + performance.now();
        episodeT0.set(job.episode_request_id, t0);
        roundT0.set(roundId, t0);
        const status = await runner.complete(job, scores);
        if (status !== 200) throw new Error(`complete: ${status}`);
      }
      // Settled (it settles after the completion answers) before the next round is triggered.
      const deadline = Date.now() + 60_000;
      while (
        (await client(writer.url).get<{ status: string }>(`/v2/rounds/${roundId}`)).body.status !==
        "completed"
      ) {
        if (Date.now() > deadline) throw new Error(`round ${i} did not settle`);
        await sleep(10);
      }
    };
    for (let i = 0; i < WARM_UP_ROUNDS; i += 1) await playRound(i);
    await sleep(500);
    const rss0 = replicas.map((r) => rssKb(r.pid));

    // Clients: PROCESSES processes, each N / PROCESSES watchers alternating over the replicas.
    const per = Math.ceil(watchers / PROCESSES);
    for (let p = 0; p < PROCESSES; p += 1) {
      const count = Math.min(per, watchers - p * per);
      if (count <= 0) break;
      const child = fork(new URL("./clients.ts", import.meta.url), [], {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      children.push(child);
      const task: ClientsTask = {
        urls: replicas.map((r) => r.url),
        count,
        offset: p * per,
        topic: `division:${division}`,
        opening: 64,
      };
      child.send(task);
    }
    await Promise.all(children.map((c) => waitFor(c, "subscribed", 300_000)));
    await sleep(2000);
    const rss1 = replicas.map((r) => rssKb(r.pid));
    const kbPerWatcher =
      (rss1.reduce((a, b) => a + b, 0) - rss0.reduce((a, b) => a + b, 0)) / watchers;

    const cpu0 = replicas.map((r) => cpuSeconds(r.pid));
    const sys0 = replicas.map((r) => cpuSeconds(r.pid, true));
    const clientCpu0 = children.map((c) => cpuSeconds(c.pid ?? 0));
    const first = performance.now();
    let lastStart = first;
    for (let i = 0; i < ROUNDS; i += 1) {
      const due = first + i * ROUND_MS;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      lastStart = performance.now();
      await playRound(WARM_UP_ROUNDS + i);
    }
    const elapsed = (performance.now() - first) / 1000;
    await sleep(DRAIN_MS);
    const cpu = replicas.reduce((sum, r, i) => sum + cpuSeconds(r.pid) - (cpu0[i] ?? 0), 0);
    const sys = replicas.reduce((sum, r, i) => sum + cpuSeconds(r.pid, true) - (sys0[i] ?? 0), 0);
    const clientCpu = children.reduce(
      (sum, c, i) => sum + cpuSeconds(c.pid ?? 0) - (clientCpu0[i] ?? 0),
      0,
    );

    const rows = await testStore.store.db
      .selectFrom("competition_events")
      .select(["seq", "event_type", "episode_request_id", "round_id", "created_at"])
      .where("division_id", "=", division)
      .orderBy("seq")
      .execute();
    const expected = rows.map((r) => Number(r.seq));
    const results = await Promise.all(
      children.map((c) => {
        const answer = waitFor(c, "result", 60_000);
        c.send({ type: "finish", expected } satisfies ToClients);
        return answer;
      }),
    );
    const clientElu = results.reduce((s, r) => s + r.elu, 0) / Math.max(1, results.length);
    const timesOf = new Map<number, number[]>();
    for (const result of results)
      for (const [seq, times] of result.times)
        timesOf.set(seq, [...(timesOf.get(seq) ?? []), ...times]);
    // Latency from the completion POST being sent, for the events it caused: the episode's
    // `episode_completed` and the settled round's `standings_changed`.
    const latencies: number[] = [];
    const lasts: number[] = [];
    let deliveries = 0;
    const { times: trace, writes } = traceTimes(replicas.map((r) => r.output()).join("\n"));
    const byType = new Map<string, { rows: typeof rows; latencies: number[] }>();
    for (const row of rows) {
      const times = timesOf.get(Number(row.seq)) ?? [];
      deliveries += times.length;
      const t0 =
        row.event_type === "episode_completed" && row.episode_request_id
          ? episodeT0.get(row.episode_request_id)
          : row.event_type === "standings_changed" && row.round_id
            ? roundT0.get(row.round_id)
            : undefined;
      // Every type in the breakdown, from the request that caused it.
      const cause =
        t0 ??
        (row.round_id
          ? row.event_type === "round_started"
            ? triggerT0.get(row.round_id)
            : roundT0.get(row.round_id)
          : undefined);
      if (cause !== undefined && times.length > 0) {
        let kind = byType.get(row.event_type);
        if (!kind) byType.set(row.event_type, (kind = { rows: [], latencies: [] }));
        kind.rows.push(row);
        for (const t of times) kind.latencies.push(t - cause);
      }
      if (t0 === undefined || times.length === 0) continue;
      let last = 0;
      for (const t of times) {
        latencies.push(t - t0);
        last = Math.max(last, t - t0);
      }
      lasts.push(last);
    }
    const stageOf = (seq: number, stage: string) => trace.get(stage)?.get(seq) ?? Number.NaN;
    const stages: Stage[] = [...byType].map(([type, kind]) => {
      const sorted = [...kind.latencies].sort((a, b) => a - b);
      const causeOf = (row: (typeof rows)[number]) =>
        (row.event_type === "episode_completed"
          ? episodeT0.get(row.episode_request_id ?? "")
          : row.event_type === "round_started"
            ? triggerT0.get(row.round_id ?? "")
            : roundT0.get(row.round_id ?? "")) ?? Number.NaN;
      const seqs = kind.rows.map((r) => Number(r.seq));
      const afterWrite = seqs
        .flatMap((seq) => (timesOf.get(seq) ?? []).map((t) => t - stageOf(seq, "written")))
        .sort((a, b) => a - b);
      return {
        type,
        events: kind.rows.length,
        deliveries: kind.latencies.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        committed: spread(kind.rows.map((r) => stageOf(Number(r.seq), "published") - causeOf(r))),
        waited: spread(seqs.map((seq) => stageOf(seq, "taken") - stageOf(seq, "published"))),
        fannedOut: spread(seqs.map((seq) => stageOf(seq, "written") - stageOf(seq, "taken"))),
        span: spread(
          seqs.map((seq) => stageOf(seq, "written") - Math.min(...(timesOf.get(seq) ?? []))),
        ),
        afterWrite: [percentile(afterWrite, 50), percentile(afterWrite, 99)],
      };
    });
    latencies.sort((a, b) => a - b);
    lasts.sort((a, b) => a - b);
    return {
      mode,
      linger,
      chunk,
      watchers,
      events: timesOf.size,
      deliveries,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      lastP50: percentile(lasts, 50),
      lastMax: lasts[lasts.length - 1] ?? Number.NaN,
      kbPerWatcher,
      cpuUsPerDelivery: (cpu * 1e6) / Math.max(1, deliveries),
      systemShare: sys / Math.max(cpu, 1e-9),
      clientCpuShare: clientCpu / elapsed,
      missed: results.reduce((s, r) => s + r.missed, 0),
      drops: results.reduce((s, r) => s + r.drops, 0),
      resumes: results.reduce((s, r) => s + r.resumes, 0),
      roundsPerSecond: (ROUNDS - 1) / ((lastStart - first) / 1000),
      stages,
      clientElu,
      writesPerRound: writes / ROUNDS,
      processes: PROCESSES,
    };
  } finally {
    for (const c of children) {
      if (c.connected) c.send({ type: "stop" } satisfies ToClients);
    }
    await Promise.all(
      children.map((c) =>
        c.exitCode === null
          ? new Promise((resolve) => c.once("exit", resolve))
          : Promise.resolve(c.exitCode),
      ),
    );
    for (const r of replicas) await r.kill();
    await setup.close();
    await testStore.cleanup();
  }
}

function openFilesLimit(): number {
  const found = /Max open files\s+(\d+)/.exec(readFileSync("/proc/self/limits", "utf8"));
  return Number(found?.[1] ?? 0);
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
  const limit = openFilesLimit();
  const largest = Math.max(...SIZES);
  if (limit < largest + 500)
    throw new Error(
      `open files limit ${limit} is below ${largest + 500}: run through \`npx -y pnpm@10 bench watchers\` (it raises it) or \`ulimit -n\` first`,
    );
  console.log(
    `Watchers — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}; a round every ${ROUND_MS} ms, ${ROUNDS} rounds; clients in ${PROCESS_COUNTS.join(" / ")} processes (ws, messages not parsed)\n`,
  );
  const figures: Figures[] = [];
  const header = [
    "replicas",
    "linger ms",
    "fan-out chunk",
    "client procs",
    "watchers",
    "events",
    "deliveries",
    "p50 ms",
    "p99 ms",
    "last p50 / max ms",
    "KB/watcher",
    "CPU µs/delivery",
    "clients CPU",
    "missed",
    "drops/resumes",
    "rounds/s",
    "writes/round",
  ];
  const row = (f: Figures) => [
    f.mode === "one" ? "1 (SQLite)" : "2 (PG+Redis)",
    f.linger === "" ? "default" : f.linger,
    f.chunk === "" ? "default" : f.chunk,
    String(f.processes),
    String(f.watchers),
    String(f.events),
    String(f.deliveries),
    f.p50.toFixed(1),
    f.p99.toFixed(1),
    `${f.lastP50.toFixed(1)} / ${f.lastMax.toFixed(1)}`,
    f.kbPerWatcher.toFixed(1),
    `${f.cpuUsPerDelivery.toFixed(1)} (${(f.systemShare * 100).toFixed(0)}% kernel)`,
    `${(f.clientCpuShare * 100).toFixed(0)}% of a core`,
    String(f.missed),
    `${f.drops}/${f.resumes}`,
    f.roundsPerSecond.toFixed(2),
    f.writesPerRound.toFixed(0),
  ];
  for (const mode of MODES)
    for (const n of SIZES)
      for (const linger of LINGERS.length > 0 ? LINGERS : [""])
        for (const chunk of CHUNKS.length > 0 ? CHUNKS : [""]) {
          if (mode !== "one" && mode !== "two")
            throw new Error(`BENCH_MODES: one or two, not ${mode}`);
          for (const processes of PROCESS_COUNTS) {
            const f = await measure(mode, n, linger, chunk, processes);
            figures.push(f);
            console.log(
              row(f)
                .map((cell, i) => `${header[i]} ${cell}`)
                .join(", "),
            );
            console.log(
              `\n${table(
                stageHeader,
                f.stages.map((s) => stageRow(s)),
              )}\n(clients' event loops busy ${(f.clientElu * 100).toFixed(0)}% of the rounds, each)\n`,
            );
          }
        }
  console.log(`\n${table(header, figures.map(row))}\n`);
  const top = figures.filter((f) => f.mode === "one").sort((a, b) => b.watchers - a.watchers)[0];
  if (top)
    console.log(
      `watchers: ${top.watchers} on one replica, p99 ${top.p99.toFixed(0)} ms, ${top.kbPerWatcher.toFixed(1)} KB per watcher, ${top.missed} missed`,
    );
}

await main();
