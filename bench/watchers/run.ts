// `bench watchers` (issue 44): how many live watchers one replica holds, what each costs, and how
// late the last one hears of a result. For each N (1,000, 5,000, 10,000): N real WebSocket
// clients (clients.ts, spread over BENCH_CLIENT_PROCESSES child processes) subscribed to one
// division of a league that settles a round every BENCH_ROUND_MS; the server is a replica in a
// process of its own, so its RSS and CPU time are read from /proc. Then the same with two
// replicas on PostgreSQL + Redis, half the watchers on each, the rounds completed on the first.
// Beside them, the floor (floor.ts): a bare server writing the same messages to the same clients,
// what the machine allows at all; BENCH_PIN puts the servers and the clients on cores of their own.
//
//   npx -y pnpm@10 bench watchers                    (raises the open-files limit to the hard one)
//   BENCH_WATCHERS=1000,10000 BENCH_ROUNDS=20 BENCH_MODES=one node bench/watchers/run.ts
//
// Not a test: the figures depend on the machine and its other load.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";

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

import { stageHeader, stageRow } from "./breakdown.ts";
import { summarise, usageFigures, type Figures, type MadeEvent } from "./figures.ts";
import { measureFloor } from "./floor.ts";
import {
  coreTimes,
  cpuSeconds,
  finishClients,
  pin,
  rssKb,
  sleep,
  startClients,
  stopClients,
} from "./processes.ts";

const SIZES = (process.env.BENCH_WATCHERS ?? "1000,5000,10000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1000);
/** Client processes, each value a row of its own (side by side). */
const PROCESS_COUNTS = (process.env.BENCH_CLIENT_PROCESSES ?? "4").split(",").map(Number);
/** `one`, `two` (replicas), `floor-raw`, `floor-ws` (floor-server.ts: what the machine allows). */
const MODES = (process.env.BENCH_MODES ?? "one,two").split(",");
/** 1: the server(s) on core 0, the clients (and this process) on core 1; `0,1`: both, side by side. */
const PINS = (process.env.BENCH_PIN ?? "0").split(",").map((v) => v === "1");
/** 1: the watchers ask for the compact form (as the web view does), 0: the full one; `0,1`: both,
 * side by side. */
const FORMS = (process.env.BENCH_COMPACT ?? "1").split(",").map((v) => v === "1");
/** The watchers' client: `ws` (the ws package) or `raw` (raw-socket.ts, lighter); a list: rows of
 * each, side by side. */
const CLIENTS = (process.env.BENCH_CLIENT ?? "ws").split(",").map((v) => {
  if (v !== "ws" && v !== "raw") throw new Error(`BENCH_CLIENT: ws or raw, not ${v}`);
  return v;
});
/** 1: the floor sends each round's `round_started` too, before the completion's events. */
const FLOOR_START = process.env.BENCH_FLOOR_START === "1";
const ALL_CORES = `0-${cpus().length - 1}`;
/** The replica's GAUNTLET_EVENTS_LINGER_MS, each value a row of its own (side by side). */
const LINGERS = (process.env.BENCH_LINGER_MS ?? "").split(",").filter((v) => v !== "");
/** The replica's GAUNTLET_EVENTS_FANOUT_CHUNK, each value a row of its own (side by side). */
const CHUNKS = (process.env.BENCH_FANOUT_CHUNK ?? "").split(",").filter((v) => v !== "");
const PG_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const WARM_UP_ROUNDS = 3;
/** After the last round: time for the last deliveries (and resumes) to land. */
const DRAIN_MS = 3000;
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

/** The baseline's replica: the same replica from another checkout (BENCH_BASELINE, its root;
 * installed, on the same migrations), so a change is measured beside what it changed. */
function baselineMain(): string {
  const root = process.env.BENCH_BASELINE;
  if (!root) throw new Error("BENCH_MODES=baseline needs BENCH_BASELINE: another checkout's root");
  const main = join(root, "apps/server/testing/replica-main.ts");
  if (!existsSync(main)) throw new Error(`BENCH_BASELINE: ${main} does not exist`);
  return main;
}

async function measure(
  mode: "one" | "two" | "baseline",
  watchers: number,
  linger: string,
  chunk: string,
  PROCESSES: number,
  pinned: boolean,
  compact: boolean,
  clientKind: "ws" | "raw",
): Promise<Figures> {
  if (pinned) pin(process.pid, "1");
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
      replicas.push(
        await startReplicaProcess(
          testStore,
          env,
          mode === "baseline" ? { main: baselineMain() } : {},
        ),
      );
    if (pinned) for (const r of replicas) pin(r.pid, "0");
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

    children.push(
      ...(await startClients({
        urls: replicas.map((r) => r.url),
        topic: `division:${division}`,
        watchers,
        processes: PROCESSES,
        compact,
        client: clientKind,
        core: pinned ? "1" : undefined,
      })),
    );
    await sleep(2000);
    const rss1 = replicas.map((r) => rssKb(r.pid));
    const kbPerWatcher =
      (rss1.reduce((a, b) => a + b, 0) - rss0.reduce((a, b) => a + b, 0)) / watchers;

    const cores0 = coreTimes();
    const self0 = cpuSeconds(process.pid);
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
    const [load = Number.NaN] = loadavg();
    await sleep(DRAIN_MS);
    const self = cpuSeconds(process.pid) - self0;
    const cores = coreTimes();
    const window = (performance.now() - first) / 1000;
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
    const results = await finishClients(
      children,
      rows.map((r) => Number(r.seq)),
    );
    // Latency from the completion POST being sent, for the events it caused: the episode's
    // `episode_completed` and the settled round's `standings_changed` (the rest in the breakdown,
    // from the request that caused each; `round_started` from trigger-round).
    const made: MadeEvent[] = rows.map((row) => ({
      seq: Number(row.seq),
      type: row.event_type,
      cause:
        row.event_type === "episode_completed"
          ? episodeT0.get(row.episode_request_id ?? "")
          : row.round_id
            ? row.event_type === "round_started"
              ? triggerT0.get(row.round_id)
              : roundT0.get(row.round_id)
            : undefined,
      counted: row.event_type === "episode_completed" || row.event_type === "standings_changed",
    }));
    const { writes, ...summary } = summarise(
      made,
      results,
      replicas.map((r) => r.output()).join("\n"),
    );
    return {
      ...summary,
      mode,
      pinned,
      compact,
      client: clientKind,
      linger,
      chunk,
      watchers,
      kbPerWatcher,
      load,
      ...usageFigures({
        cpu,
        sys,
        clientCpu,
        self,
        watchers,
        rounds: ROUNDS,
        writes,
        deliveries: summary.deliveries,
        elapsed,
        window,
        cores0,
        cores,
        first,
        lastStart,
      }),
      processes: PROCESSES,
    };
  } finally {
    await stopClients(children);
    for (const r of replicas) await r.kill();
    await setup.close();
    await testStore.cleanup();
    if (pinned) pin(process.pid, ALL_CORES);
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
    "server",
    "pinned",
    "form",
    "client",
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
    "CPU µs/watcher/round",
    "CPU µs/write",
    "clients CPU",
    "missed",
    "drops/resumes",
    "rounds/s",
    "writes/round",
    "cores busy",
    "softirq / steal / others",
    "load",
  ];
  const serverName: Record<string, string> = {
    one: "1 (SQLite)",
    baseline: "1 (SQLite), baseline",
    two: "2 (PG+Redis)",
    "floor-raw": "floor (raw socket)",
    "floor-ws": "floor (ws.send)",
  };
  const floor = (f: Figures) => f.mode.startsWith("floor-");
  const row = (f: Figures) => [
    serverName[f.mode] ?? f.mode,
    f.pinned ? "yes" : "no",
    f.compact ? "compact" : "full",
    f.client,
    floor(f) ? "-" : f.linger === "" ? "default" : f.linger,
    floor(f) ? "-" : f.chunk === "" ? "default" : f.chunk,
    String(f.processes),
    String(f.watchers),
    String(f.events),
    String(f.deliveries),
    f.p50.toFixed(1),
    f.p99.toFixed(1),
    `${f.lastP50.toFixed(1)} / ${f.lastMax.toFixed(1)}`,
    f.kbPerWatcher.toFixed(1),
    `${f.cpuUsPerDelivery.toFixed(1)} (${(f.systemShare * 100).toFixed(0)}% kernel)`,
    f.cpuUsPerWatcherRound.toFixed(1),
    Number.isNaN(f.cpuUsPerWrite) ? "-" : f.cpuUsPerWrite.toFixed(1),
    `${(f.clientCpuShare * 100).toFixed(0)}% of a core`,
    String(f.missed),
    `${f.drops}/${f.resumes}`,
    f.roundsPerSecond.toFixed(2),
    f.writesPerRound.toFixed(0),
    f.machine.busy.map((b) => `${(b * 100).toFixed(0)}%`).join(" / "),
    [f.machine.softirq, f.machine.steal, f.machine.others]
      .map((v) => `${(v * 100).toFixed(0)}%`)
      .join(" / "),
    f.load.toFixed(1),
  ];
  for (const mode of MODES)
    for (const n of SIZES)
      for (const pinned of PINS)
        for (const compact of FORMS)
          for (const clientKind of CLIENTS)
            for (const linger of LINGERS.length > 0 ? LINGERS : [""])
              for (const chunk of CHUNKS.length > 0 ? CHUNKS : [""])
                for (const processes of PROCESS_COUNTS) {
                  let f: Figures;
                  if (mode === "one" || mode === "two" || mode === "baseline")
                    f = await measure(
                      mode,
                      n,
                      linger,
                      chunk,
                      processes,
                      pinned,
                      compact,
                      clientKind,
                    );
                  else if (mode === "floor-raw" || mode === "floor-ws") {
                    // The floor has no linger nor chunk: one row for all of them.
                    if (linger !== (LINGERS[0] ?? "") || chunk !== (CHUNKS[0] ?? "")) continue;
                    f = await measureFloor({
                      send: mode === "floor-raw" ? "raw" : "ws",
                      watchers: n,
                      processes,
                      pinned,
                      compact,
                      client: clientKind,
                      withStart: FLOOR_START,
                      rounds: ROUNDS,
                      roundMs: ROUND_MS,
                      warmUpRounds: WARM_UP_ROUNDS,
                      drainMs: DRAIN_MS,
                    });
                  } else
                    throw new Error(
                      `BENCH_MODES: one, two, baseline, floor-raw or floor-ws, not ${mode}`,
                    );
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
                    )}\n(clients' event loops busy ${(f.clientElu * 100).toFixed(0)}% of the rounds, each; message bytes ${[...f.bytesByType].map(([type, bytes]) => `${type} ${bytes}`).join(", ")})\n`,
                  );
                }
  console.log(`\n${table(header, figures.map(row))}\n`);
  // Gauntlet against the floor measured alike (same watchers, pinning and client processes),
  // each row against the nearest such floor row of the run (the machine's load drifts).
  figures.forEach((g, i) => {
    if (floor(g)) return;
    for (const mode of ["floor-raw", "floor-ws", ...(g.mode === "one" ? ["baseline"] : [])]) {
      const alike = figures
        .map((f, j) => ({ f, distance: Math.abs(i - j) }))
        .filter(
          ({ f }) =>
            f.mode === mode &&
            f.watchers === g.watchers &&
            f.pinned === g.pinned &&
            f.compact === g.compact &&
            f.client === g.client &&
            f.processes === g.processes,
        )
        .sort((a, b) => a.distance - b.distance)[0]?.f;
      if (alike)
        console.log(
          `${serverName[g.mode]}${g.pinned ? " pinned" : ""}${g.compact ? " compact" : " full"}, ${g.client} clients (row ${i + 1}) / ${serverName[mode]} (row ${figures.indexOf(alike) + 1}) at ${g.watchers}: p50 ×${(g.p50 / alike.p50).toFixed(2)}, p99 ×${(g.p99 / alike.p99).toFixed(2)}, CPU a watcher a round ×${(g.cpuUsPerWatcherRound / alike.cpuUsPerWatcherRound).toFixed(2)}, CPU a write ×${(g.cpuUsPerWrite / alike.cpuUsPerWrite).toFixed(2)}`,
        );
    }
  });
  // The headline: the largest N on one replica, the full form's first and the compact one's last
  // (the web view's), so the last line is the form a crowd of spectators gets.
  for (const compact of [false, true]) {
    const top = figures
      .filter((f) => f.mode === "one" && f.compact === compact)
      .sort((a, b) => b.watchers - a.watchers)[0];
    if (top)
      console.log(
        `watchers: ${top.watchers} on one replica, p99 ${top.p99.toFixed(0)} ms, ${top.kbPerWatcher.toFixed(1)} KB per watcher, ${top.missed} missed${compact ? "" : " (full form)"}`,
      );
  }
}

await main();
