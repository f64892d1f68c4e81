// `bench watchers`' floor rows (BENCH_MODES=floor-raw,floor-ws): the same clients and latency
// method against floor-server.ts, a server that does nothing but write the same messages — what
// this machine allows at all. A round is one `POST /events` of the completion's three messages
// (the sizes of the replica's), and first its `round_started` with BENCH_FLOOR_START=1.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";

import { summarise, usageFigures, type Figures, type MadeEvent } from "./figures.ts";
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

/** The replica's message sizes for one division's events (bytes, measured with clients.ts),
 * in the full form and in the compact one (subscribe's `compact`). */
const BYTES = {
  round_started: 3334,
  episode_completed: 3866,
  round_completed: 3372,
  standings_changed: 3600,
};
const COMPACT_BYTES: typeof BYTES = {
  round_started: 723,
  episode_completed: 1255,
  round_completed: 761,
  standings_changed: 989,
};
const COMPLETION = ["episode_completed", "round_completed", "standings_changed"] as const;
const COUNTED = new Set(["episode_completed", "standings_changed"]);

export interface FloorOptions {
  send: "raw" | "ws";
  watchers: number;
  processes: number;
  pinned: boolean;
  compact: boolean;
  client: "ws" | "raw";
  withStart: boolean;
  rounds: number;
  roundMs: number;
  warmUpRounds: number;
  drainMs: number;
}

async function startFloorServer(send: "raw" | "ws") {
  const child = spawn(process.execPath, [new URL("./floor-server.ts", import.meta.url).pathname], {
    env: { PATH: process.env.PATH ?? "", FLOOR_SEND: send },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening (\S+)/.exec(output);
      if (found?.[1]) resolve(found[1]);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => reject(new Error(`the floor server exited (${code}): ${output}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    url,
    pid: child.pid ?? 0,
    output: () => output,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export async function measureFloor(options: FloorOptions): Promise<Figures> {
  const { watchers, processes, pinned, rounds, roundMs } = options;
  if (pinned) pin(process.pid, "1");
  const server = await startFloorServer(options.send);
  if (pinned) pin(server.pid, "0");
  let children: Awaited<ReturnType<typeof startClients>> = [];
  try {
    const made: MadeEvent[] = [];
    const post = async (types: readonly (keyof typeof BYTES)[], counted: boolean) => {
      const cause = performance.timeOrigin + performance.now();
      const response = await fetch(`${server.url}/events`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          types,
          bytes: types.map((t) => (options.compact ? COMPACT_BYTES : BYTES)[t]),
        }),
      });
      const { seqs } = (await response.json()) as { seqs: number[] };
      seqs.forEach((seq, i) => {
        const type = types[i] ?? "";
        made.push({ seq, type, cause, counted: counted && COUNTED.has(type) });
      });
    };
    const playRound = async (counted: boolean) => {
      if (options.withStart) await post(["round_started"], false);
      await post(COMPLETION, counted);
    };
    for (let i = 0; i < options.warmUpRounds; i += 1) await playRound(false);
    await sleep(500);
    const rss0 = rssKb(server.pid);
    children = await startClients({
      urls: [server.url],
      topic: "division:floor",
      watchers,
      processes,
      compact: options.compact,
      client: options.client,
      core: pinned ? "1" : undefined,
    });
    await sleep(2000);
    const kbPerWatcher = (rssKb(server.pid) - rss0) / watchers;

    const cores0 = coreTimes();
    const self0 = cpuSeconds(process.pid);
    const cpu0 = cpuSeconds(server.pid);
    const sys0 = cpuSeconds(server.pid, true);
    const clientCpu0 = children.map((c) => cpuSeconds(c.pid ?? 0));
    const first = performance.now();
    let lastStart = first;
    for (let i = 0; i < rounds; i += 1) {
      const wait = first + i * roundMs - performance.now();
      if (wait > 0) await sleep(wait);
      lastStart = performance.now();
      await playRound(true);
    }
    const elapsed = (performance.now() - first) / 1000;
    const [load = Number.NaN] = loadavg();
    await sleep(options.drainMs);
    const cpu = cpuSeconds(server.pid) - cpu0;
    const self = cpuSeconds(process.pid) - self0;
    const cores = coreTimes();
    const window = (performance.now() - first) / 1000;
    const sys = cpuSeconds(server.pid, true) - sys0;
    const clientCpu = children.reduce(
      (sum, c, i) => sum + cpuSeconds(c.pid ?? 0) - (clientCpu0[i] ?? 0),
      0,
    );
    const results = await finishClients(
      children,
      made.map((m) => m.seq),
    );
    const { writes, ...summary } = summarise(made, results, server.output());
    return {
      ...summary,
      mode: `floor-${options.send}`,
      pinned,
      compact: options.compact,
      client: options.client,
      linger: "",
      chunk: "",
      watchers,
      kbPerWatcher,
      load,
      ...usageFigures({
        cpu,
        sys,
        clientCpu,
        self,
        watchers,
        rounds: rounds,
        writes,
        deliveries: summary.deliveries,
        elapsed,
        window,
        cores0,
        cores,
        first,
        lastStart,
      }),
      processes,
    };
  } finally {
    await stopClients(children);
    await server.kill();
    if (pinned) pin(process.pid, "0-1");
  }
}
