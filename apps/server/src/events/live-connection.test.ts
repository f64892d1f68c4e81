// One live connection over a real WebSocket, with topic rules the test paces: a resuming
// subscribe to two topics gets every event after its seq once and in order, even when a live
// event arrives on the first topic while the second is still being checked; and a socket that
// closes during that check leaves nothing behind in the fan-out.
import { once } from "node:events";
import { createServer, type Server } from "node:http";

import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";

import { eventRow } from "../../testing/event-row.ts";
import { createTestStore, type TestStore } from "../../testing/test-store.ts";
import { ANONYMOUS } from "../auth/identity.ts";
import type { CompetitionEventsTable } from "../store/schema.ts";
import { textFrame, type Delivery } from "./delivery.ts";
import { TopicFanOut } from "./fan-out.ts";
import { LiveConnection } from "./live-connection.ts";
import type { LiveTopic, TopicRules } from "./topic-rules.ts";

const row = (seq: number, topic: string): CompetitionEventsTable =>
  eventRow(seq, { division_id: topic });

const delivery = (r: CompetitionEventsTable): Delivery => ({
  row: r,
  scope: { league: undefined, division: undefined },
  frame: (topic) => textFrame(JSON.stringify({ seq: r.seq, topic, type: r.event_type })),
});

let store: TestStore | undefined;
let server: Server | undefined;
const clients: WebSocket[] = [];
afterEach(async () => {
  for (const c of clients) c.terminate();
  clients.length = 0;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await store?.cleanup();
});

/**
 * Rules over `log` whose check of topic "b" waits for the test (`releaseB`), after saying it
 * started (`bAsking`), and a real WebSocket server whose connections use them; a closed socket
 * leaves the fan-out, as the route does.
 */
async function pacedServer(log: readonly CompetitionEventsTable[], lastSeq: number) {
  store = await createTestStore();
  let releaseB: () => void = () => undefined;
  const bChecked = new Promise<void>((resolve) => (releaseB = resolve));
  let bAsked: () => void = () => undefined;
  const bAsking = new Promise<void>((resolve) => (bAsked = resolve));
  const rules: TopicRules<LiveTopic> = {
    parse: (name) => (name === "a" || name === "b" ? { name } : null),
    patterns: ["a", "b"],
    async refuse(_db, _identity, topic) {
      if (topic.name === "b") {
        bAsked();
        await bChecked;
      }
      return null;
    },
    mayReceive: () => true,
    topicOf: (_identity, topics, r) => {
      for (const t of topics) if (t.name === r.division_id) return t.name;
      return null;
    },
    routes: (r) => (r.division_id ? [r.division_id] : []),
    backlog: async (_db, _identity, topics, after, limit) =>
      log
        .filter((r) => r.seq > after && topics.some((t) => t.name === r.division_id))
        .slice(0, limit),
  };
  const fanOut = new TopicFanOut((d) => rules.routes(d.row));
  const hub = {
    lastSeq,
    deliveries: async (rows: readonly CompetitionEventsTable[]) => rows.map(delivery),
  };
  const db = store.store.db;
  let closed: () => void = () => undefined;
  const serverClosed = new Promise<void>((resolve) => (closed = resolve));
  server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on("connection", (socket, request) => {
    const connection = new LiveConnection({
      socket,
      identity: ANONYMOUS,
      db,
      hub,
      fanOut,
      rules,
      stream: request.socket,
    });
    socket.on("message", (data: Buffer) => void connection.receive(data.toString("utf8")));
    socket.on("close", () => {
      fanOut.remove(connection);
      closed();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const ws = new WebSocket(`ws://127.0.0.1:${address.port}`);
  clients.push(ws);
  return { ws, fanOut, bAsking, releaseB, serverClosed };
}

describe("a resuming subscribe", () => {
  it("replays every event after its seq when a live one arrives while a later topic is checked", async () => {
    const log = [1, 2, 3, 4, 5].map((seq) => row(seq, seq % 2 ? "a" : "b"));
    const { ws, fanOut, bAsking, releaseB } = await pacedServer(log, 5);
    const seqs: number[] = [];
    const subscribed = new Promise<void>((resolve) =>
      ws.on("message", (data: Buffer) => {
        const m = JSON.parse(data.toString("utf8")) as { type?: string; seq?: number };
        if (m.type === "subscribed") resolve();
        else if (typeof m.seq === "number") seqs.push(m.seq);
      }),
    );
    await once(ws, "open");
    // The client last read seq 1; 2..5 are in the log. While "b" is being checked, seq 5 (on
    // "a") arrives live.
    ws.send(JSON.stringify({ type: "subscribe", topics: ["a", "b"], since_seq: 1 }));
    await bAsking;
    const live = log[4];
    if (!live) throw new Error("no seq 5");
    fanOut.deliver([delivery(live)]);
    releaseB();
    await subscribed;

    expect(seqs).toEqual([2, 3, 4, 5]);
  });

  it("leaves nothing in the fan-out when the socket closes while a topic is checked", async () => {
    const { ws, fanOut, bAsking, releaseB, serverClosed } = await pacedServer([], 0);
    await once(ws, "open");
    ws.send(JSON.stringify({ type: "subscribe", topics: ["a", "b"] }));
    await bAsking;
    ws.terminate();
    await serverClosed;
    releaseB();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fanOut.size).toBe(0);
  });
});

describe("a subscribe while a fan-out pass is being written", () => {
  it("gets none of that pass's events: nothing older than its subscribed seq arrives after it", async () => {
    store = await createTestStore();
    const rules: TopicRules<LiveTopic> = {
      parse: (name) => ({ name }),
      patterns: ["a"],
      refuse: async () => null,
      mayReceive: () => true,
      topicOf: (_identity, topics, r) => {
        for (const t of topics) if (t.name === r.division_id) return t.name;
        return null;
      },
      routes: (r) => (r.division_id ? [r.division_id] : []),
      backlog: async () => [],
    };
    const fanOut = new TopicFanOut((d) => rules.routes(d.row), { chunk: 1 });
    const others: number[][] = [];
    for (let i = 0; i < 2; i += 1) {
      const seqs: number[] = [];
      others.push(seqs);
      fanOut.add({ handedThrough: 0, deliver: (d) => seqs.push(...d.map((x) => x.row.seq)) }, "a");
    }
    const sent: string[] = [];
    const socket = {
      readyState: 1,
      OPEN: 1,
      bufferedAmount: 0,
      send: (message: string) => sent.push(message),
    } as unknown as WebSocket;
    const written: Buffer[] = [];
    const connection = new LiveConnection({
      socket,
      identity: ANONYMOUS,
      db: store.store.db,
      hub: { lastSeq: 6, deliveries: async () => [] },
      fanOut,
      rules,
      stream: {
        write: (bytes) => written.push(bytes) > 0,
        cork: () => undefined,
        uncork: () => undefined,
        once: () => undefined,
        off: () => undefined,
      },
    });
    // Seq 6 is being written: the first subscriber has it, the second waits for the next turn.
    fanOut.deliver([delivery(row(6, "a"))]);
    expect(others).toEqual([[6], []]);
    await connection.receive(JSON.stringify({ type: "subscribe", topics: ["a"] }));
    await fanOut.written();
    expect(others).toEqual([[6], [6]]);
    expect(sent.map((m) => JSON.parse(m) as unknown)).toEqual([
      { type: "subscribed", topics: ["a"], seq: 6 },
    ]);
    expect(written).toEqual([]);
    // What follows reaches it.
    fanOut.deliver([delivery(row(7, "a"))]);
    await fanOut.written();
    expect(written.map((b) => b.toString("utf8"))).toEqual([
      expect.stringContaining('"seq":7') as string,
    ]);
  });
});
