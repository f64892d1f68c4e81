// `bench watchers`' figures of one row, whatever the server (a replica, or the floor server):
// latencies from the clients' receipts against the time each event's cause was sent, and where
// they went (the server's trace, breakdown.ts).
import { percentile, spread, traceTimes, type Stage } from "./breakdown.ts";
import type { FromClients } from "./clients.ts";
import { machineShares, type CoreTimes } from "./processes.ts";

export type ClientsResult = Extract<FromClients, { type: "result" }>;

/** A row: a replica or two (`one`, `two`) or the floor server (`floor-raw`, `floor-ws`). */
export interface Figures {
  mode: string;
  /** The servers on core 0 and the clients on core 1 (BENCH_PIN). */
  pinned: boolean;
  /** The watchers asked for the compact form (BENCH_COMPACT). */
  compact: boolean;
  /** The watchers' WebSocket client (BENCH_CLIENT). */
  client: "ws" | "raw";
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
  /** The server's CPU a watcher a round: comparable across servers whatever they batch. */
  cpuUsPerWatcherRound: number;
  /** The server's CPU per socket write (one a watcher a batch): the floor's unit of work. */
  cpuUsPerWrite: number;
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
  /** Each core's busy share over the rounds, the softirq and stolen shares (of a core), and
   * others' work: what was busy beyond softirq, steal and the bench's own processes. */
  machine: { busy: number[]; softirq: number; steal: number; others: number };
  /** The machine's load average (1 min) at the end of the rounds: others' work shows here. */
  load: number;
  /** Message size in bytes by event type (the median; the floor's are made the same). */
  bytesByType: Map<string, number>;
}

/** One event the server made, and when its cause was sent (epoch ms, the clients' clock). */
export interface MadeEvent {
  seq: number;
  type: string;
  cause: number | undefined;
  /** In the headline p50/p99: the completion's `episode_completed` and `standings_changed`. */
  counted: boolean;
}

export function summarise(
  made: readonly MadeEvent[],
  results: readonly ClientsResult[],
  traceOutput: string,
): Pick<
  Figures,
  | "events"
  | "deliveries"
  | "p50"
  | "p99"
  | "lastP50"
  | "lastMax"
  | "stages"
  | "clientElu"
  | "missed"
  | "drops"
  | "resumes"
  | "bytesByType"
> & { writes: number } {
  const timesOf = new Map<number, number[]>();
  for (const result of results)
    for (const [seq, times] of result.times)
      timesOf.set(seq, [...(timesOf.get(seq) ?? []), ...times]);
  const sizeOf = new Map(results.flatMap((r) => r.sizes));
  const latencies: number[] = [];
  const lasts: number[] = [];
  let deliveries = 0;
  const { times: trace, writes } = traceTimes(traceOutput);
  const byType = new Map<string, { made: MadeEvent[]; latencies: number[]; bytes: number[] }>();
  for (const event of made) {
    const times = timesOf.get(event.seq) ?? [];
    deliveries += times.length;
    if (event.cause === undefined || times.length === 0) continue;
    let kind = byType.get(event.type);
    if (!kind) byType.set(event.type, (kind = { made: [], latencies: [], bytes: [] }));
    kind.made.push(event);
    kind.bytes.push(sizeOf.get(event.seq) ?? Number.NaN);
    for (const t of times) kind.latencies.push(t - event.cause);
    if (!event.counted) continue;
    let last = 0;
    for (const t of times) {
      latencies.push(t - event.cause);
      last = Math.max(last, t - event.cause);
    }
    lasts.push(last);
  }
  const stageOf = (seq: number, stage: string) => trace.get(stage)?.get(seq) ?? Number.NaN;
  const stages: Stage[] = [...byType].map(([type, kind]) => {
    const sorted = [...kind.latencies].sort((a, b) => a - b);
    const seqs = kind.made.map((e) => e.seq);
    const afterWrite = seqs
      .flatMap((seq) => (timesOf.get(seq) ?? []).map((t) => t - stageOf(seq, "written")))
      .sort((a, b) => a - b);
    return {
      type,
      events: kind.made.length,
      deliveries: kind.latencies.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      committed: spread(kind.made.map((e) => stageOf(e.seq, "published") - (e.cause ?? 0))),
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
    events: timesOf.size,
    deliveries,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    lastP50: percentile(lasts, 50),
    lastMax: lasts[lasts.length - 1] ?? Number.NaN,
    stages,
    clientElu: results.reduce((s, r) => s + r.elu, 0) / Math.max(1, results.length),
    missed: results.reduce((s, r) => s + r.missed, 0),
    drops: results.reduce((s, r) => s + r.drops, 0),
    resumes: results.reduce((s, r) => s + r.resumes, 0),
    bytesByType: new Map(
      [...byType].map(([type, kind]) => [
        type,
        percentile(
          [...kind.bytes].sort((a, b) => a - b),
          50,
        ),
      ]),
    ),
    writes,
  };
}

/** What a row's server and clients used over its rounds, as read off `/proc`. */
export interface Usage {
  /** The server's CPU seconds, and the kernel's part of them. */
  cpu: number;
  sys: number;
  clientCpu: number;
  /** This process's own CPU seconds (it plays the rounds). */
  self: number;
  watchers: number;
  rounds: number;
  writes: number;
  deliveries: number;
  /** Seconds of the rounds, and of the rounds with the drain after them. */
  elapsed: number;
  window: number;
  cores0: CoreTimes;
  cores: CoreTimes;
  /** When the first and the last round started (performance.now(), ms). */
  first: number;
  lastStart: number;
}

/** The row's per-unit figures from its usage, the same for every server. */
export function usageFigures(u: Usage) {
  return {
    cpuUsPerDelivery: (u.cpu * 1e6) / Math.max(1, u.deliveries),
    cpuUsPerWatcherRound: (u.cpu * 1e6) / (u.watchers * u.rounds),
    // No write traced: the fan-out never finished a pass (it lagged behind to the end).
    cpuUsPerWrite: u.writes > 0 ? (u.cpu * 1e6) / u.writes : Number.NaN,
    machine: machineShares(u.cores0, u.cores, u.window, u.cpu + u.clientCpu + u.self),
    systemShare: u.sys / Math.max(u.cpu, 1e-9),
    clientCpuShare: u.clientCpu / u.elapsed,
    roundsPerSecond: (u.rounds - 1) / ((u.lastStart - u.first) / 1000),
    writesPerRound: u.writes / u.rounds,
  };
}
