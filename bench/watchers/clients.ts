// One process of `bench watchers`' clients (run.ts forks several): real WebSocket clients (the
// ws package's, or raw-socket.ts's lighter ones: BENCH_CLIENT), each subscribed to one topic, keeping the time each event reached it. A watcher dropped by
// the server (4008, or a broken socket) reconnects at once and resumes from the last seq it read.
// Messages are not parsed: the seq is read from the head of the frame the server builds.
import { performance, type EventLoopUtilization } from "node:perf_hooks";

import WebSocket from "ws";

import { openRawSocket, type BenchSocket, type BenchSocketEvents } from "./raw-socket.ts";

export interface ClientsTask {
  urls: string[];
  count: number;
  /** Spreads this process's watchers over `urls` from this offset (watcher i → urls[(offset+i) % n]). */
  offset: number;
  topic: string;
  /** Connections opening at once (the listen backlog is not the thing measured). */
  opening: number;
  /** Subscribe's `compact` (events without the embedded league and division), as the web view asks. */
  compact: boolean;
  /** `ws` (the ws package's client) or `raw` (raw-socket.ts: the same protocol, lighter). */
  client: "ws" | "raw";
}

export type ToClients = { type: "finish"; expected: number[] } | { type: "stop" };

export type FromClients =
  | { type: "subscribed"; count: number }
  | {
      type: "result";
      /** seq → every receive time (epoch ms) among this process's watchers. */
      times: [number, number[]][];
      missed: number;
      drops: number;
      resumes: number;
      /** This process's event loop's busy share since its watchers were all subscribed. */
      elu: number;
      /** seq → its message's size in bytes (the floor server is given the same sizes). */
      sizes: [number, number][];
    };

interface Watcher {
  url: string;
  /** The seq of the first `subscribed` answer: everything after it must arrive. */
  from: number | null;
  last: number;
  seen: Set<number>;
}

const SEQ = /^\{"seq":(\d+),/;

function send(message: FromClients): void {
  process.send?.(message);
}

/** The ws package's client, as a BenchSocket. */
function openWsSocket(url: string, on: BenchSocketEvents): BenchSocket {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.on("open", () => on.open());
  ws.on("message", (data: Buffer) => on.message(data));
  ws.on("error", () => undefined);
  ws.on("close", () => on.close());
  return { send: (text) => ws.send(text), terminate: () => ws.terminate() };
}

function run(task: ClientsTask): void {
  const times = new Map<number, number[]>();
  const sizes = new Map<number, number>();
  let subscribed = 0;
  let drops = 0;
  let resumes = 0;
  let stopping = false;
  const sockets = new Set<BenchSocket>();
  let idle: EventLoopUtilization | undefined;

  const connect = (w: Watcher, onSubscribed: () => void) => {
    const handlers: BenchSocketEvents = {
      open: () =>
        ws.send(
          JSON.stringify({
            type: "subscribe",
            topics: [task.topic],
            ...(task.compact ? { compact: true } : {}),
            ...(w.from === null ? {} : { since_seq: w.last }),
          }),
        ),
      message: (data) => {
        const now = performance.timeOrigin + performance.now();
        const head = data.subarray(0, 24).toString("latin1");
        const found = SEQ.exec(head);
        if (found?.[1]) {
          const seq = Number(found[1]);
          if (w.seen.has(seq)) return;
          w.seen.add(seq);
          if (seq > w.last) w.last = seq;
          let list = times.get(seq);
          if (!list) {
            times.set(seq, (list = []));
            sizes.set(seq, data.length);
          }
          list.push(now);
          return;
        }
        const control = JSON.parse(data.toString("utf8")) as { type: string; seq?: number };
        if (control.type === "subscribed") {
          if (w.from === null) {
            w.from = control.seq ?? 0;
            w.last = Math.max(w.last, w.from);
          }
          onSubscribed();
        }
      },
      close: () => {
        sockets.delete(ws);
        if (stopping) return;
        drops += 1;
        // Not yet subscribed: the first subscription is still owed (and opens the next watcher).
        connect(
          w,
          w.from === null
            ? onSubscribed
            : () => {
                resumes += 1;
              },
        );
      },
    };
    const url = `${w.url.replace(/^http/, "ws")}/v2/events`;
    const ws = task.client === "raw" ? openRawSocket(url, handlers) : openWsSocket(url, handlers);
    sockets.add(ws);
  };

  const watchers: Watcher[] = Array.from({ length: task.count }, (_, i) => ({
    url: task.urls[(task.offset + i) % task.urls.length] ?? "",
    from: null,
    last: 0,
    seen: new Set(),
  }));
  // Opens `opening` at a time: each watcher's subscription answered opens the next.
  let next = 0;
  const openNext = () => {
    const w = watchers[next];
    if (!w) return;
    next += 1;
    connect(w, () => {
      subscribed += 1;
      if (subscribed === task.count) {
        idle = performance.eventLoopUtilization();
        send({ type: "subscribed", count: subscribed });
      }
      openNext();
    });
  };
  for (let i = 0; i < Math.min(task.opening, task.count); i += 1) openNext();

  process.on("message", (message: ToClients) => {
    if (message.type === "stop") {
      stopping = true;
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    }
    let missed = 0;
    for (const w of watchers)
      for (const seq of message.expected) if (seq > (w.from ?? 0) && !w.seen.has(seq)) missed += 1;
    const elu = idle ? performance.eventLoopUtilization(idle).utilization : Number.NaN;
    send({ type: "result", times: [...times], missed, drops, resumes, elu, sizes: [...sizes] });
  });
}

process.once("message", (task: ClientsTask) => run(task));
