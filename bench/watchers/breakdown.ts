// `bench watchers`' breakdown of the latency by event type and stage (run.ts prints it under
// each row): the replica's trace (testing/replica-main.ts) against the clients' receipts.
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** One event type's share of the latency (the breakdown printed under the table). */
export interface Stage {
  type: string;
  events: number;
  deliveries: number;
  /** Completion POST sent (trigger-round for a round's start) → each watcher's receipt. */
  p50: number;
  p99: number;
  /** → its row committed and published on the replica (p50 and max over the events). */
  committed: [number, number];
  /** Published → taken by the hub (its linger, and any delivery still running before it). */
  waited: [number, number];
  /** Taken → handed to every subscriber (rendered, and every socket written). */
  fannedOut: [number, number];
  /** The first watcher's receipt → the replica's last write of it (the fan-out's span). */
  span: [number, number];
  /** The replica's last write → each watcher's receipt (p50, p99 over deliveries): on loopback the
   * bytes are in the watcher's socket by then, so what is left is the clients' own delay. */
  afterWrite: [number, number];
}

/** Times (epoch ms) the replica's trace gave each seq, by stage (replica-main.ts). */
export function traceTimes(output: string): {
  times: Map<string, Map<number, number>>;
  writes: number;
} {
  const out = new Map<string, Map<number, number>>();
  let total = 0;
  for (const line of output.split("\n")) {
    if (!line.startsWith("trace ")) continue;
    const { stage, seqs, at, writes } = JSON.parse(line.slice(6)) as {
      stage: string;
      seqs: number[];
      at: number;
      writes?: number;
    };
    total += writes ?? 0;
    let times = out.get(stage);
    if (!times) out.set(stage, (times = new Map<number, number>()));
    for (const seq of seqs) if (!times.has(seq)) times.set(seq, at);
  }
  return { times: out, writes: total };
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export const spread = (values: number[]): [number, number] => [
  median(values),
  values.length ? Math.max(...values) : Number.NaN,
];

// Where the time goes, per event type (ms; "a / b" is p50 / max over the events unless said).
export const stageHeader = [
  "event",
  "n",
  "p50",
  "p99",
  "→ committed",
  "→ taken (linger)",
  "→ written (fan-out)",
  "1st receipt → written",
  "written → receipt p50 / p99",
];
const pair = ([a, b]: [number, number]) => `${a.toFixed(1)} / ${b.toFixed(1)}`;
export const stageRow = (s: Stage) => [
  s.type,
  String(s.events),
  s.p50.toFixed(1),
  s.p99.toFixed(1),
  pair(s.committed),
  pair(s.waited),
  pair(s.fannedOut),
  pair(s.span),
  pair(s.afterWrite),
];
