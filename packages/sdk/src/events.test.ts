// Against a small `ws` server that speaks the message shapes of @gauntlet/core's live-events
// model (reconnects and failures are easier to stage there than on the real server, whose
// WebSocket has its own tests in apps/server).
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket as ServerSocket } from "ws";

import { createClient } from "./client.ts";
import { LiveEventsError } from "./errors.ts";
import type { LiveEvent, SubscriptionStatus } from "./events.ts";

interface Connection {
  socket: ServerSocket;
  request: IncomingMessage;
  subscribe: Promise<{ type: string; topics: string[]; since_seq?: number; compact?: boolean }>;
}

let wss: WebSocketServer;
let baseUrl: string;
let connections: Connection[];
let waiters: (() => void)[];

beforeEach(async () => {
  connections = [];
  waiters = [];
  wss = new WebSocketServer({ port: 0, host: "127.0.0.1", path: "/observatory/v2/events" });
  wss.on("connection", (socket, request) => {
    const subscribe = new Promise<Connection["subscribe"] extends Promise<infer T> ? T : never>(
      (resolve) =>
        socket.once("message", (data) => resolve(JSON.parse((data as Buffer).toString("utf8")))),
    );
    connections.push({ socket, request, subscribe });
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve) => wss.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(wss.address() as AddressInfo).port}/observatory`;
});
afterEach(async () => {
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
});

async function connection(n: number): Promise<Connection> {
  while (connections.length <= n) await new Promise<void>((resolve) => waiters.push(resolve));
  const c = connections[n];
  if (!c) throw new Error("unreachable");
  return c;
}

/** Waits for a condition; the test's timeout is the only limit (no wall-clock deadline here). */
function until(predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const tick = () => (predicate() ? resolve() : setTimeout(tick, 5));
    tick();
  });
}

const event = (seq: number, type = "standings.changed"): LiveEvent => ({
  seq,
  topic: "division:d1",
  type,
  data: { seq },
  at: "2025-01-01T00:00:00Z",
});
const send = (c: Connection, message: unknown) => c.socket.send(JSON.stringify(message));

function client() {
  return createClient({ env: {}, useSavedCredentials: false, baseUrl, token: "live-token" });
}

describe("live events", () => {
  it("subscribes with the token, delivers events in order, and closes on request", async () => {
    const received: LiveEvent[] = [];
    const statuses: SubscriptionStatus[] = [];
    const sub = client().events.subscribe(["division:d1", "league:l1"], {
      onEvent: (e) => received.push(e),
      onStatus: (s) => statuses.push(s),
    });
    const c = await connection(0);
    expect(c.request.headers.authorization).toBe("Bearer live-token");
    expect(await c.subscribe).toEqual({ type: "subscribe", topics: ["division:d1", "league:l1"] });
    send(c, event(1));
    send(c, event(2, "round.completed"));
    await until(() => received.length === 2);
    expect(received).toEqual([event(1), event(2, "round.completed")]);
    expect(sub.lastSeq).toBe(2);
    sub.close();
    await sub.closed;
    expect(statuses).toEqual(["connecting", "open", "closed"]);
  });

  it("reconnects after a drop, resumes after the last seq, and does not deliver an event twice", async () => {
    const received: number[] = [];
    const sub = client().events.subscribe(["division:d1"], {
      onEvent: (e) => received.push(e.seq),
      reconnect: { baseDelayMs: 20, maxDelayMs: 50 },
    });
    const first = await connection(0);
    await first.subscribe;
    send(first, event(1));
    send(first, event(2));
    await until(() => received.length === 2);
    first.socket.terminate();
    const second = await connection(1);
    expect(await second.subscribe).toEqual({
      type: "subscribe",
      topics: ["division:d1"],
      since_seq: 2,
    });
    // The server may replay from an earlier point; the client drops what it has.
    send(second, event(2));
    send(second, event(3));
    await until(() => received.length === 3);
    expect(received).toEqual([1, 2, 3]);
    sub.close();
    await sub.closed;
  });

  it("starts after sinceSeq when given", async () => {
    const sub = client().events.subscribe(["league:l1"], {
      onEvent: () => undefined,
      sinceSeq: 40,
    });
    expect((await (await connection(0)).subscribe).since_seq).toBe(40);
    sub.close();
  });

  it("asks for the compact form when told, and again after a reconnect", async () => {
    const sub = client().events.subscribe(["division:d1"], {
      onEvent: () => undefined,
      compact: true,
      reconnect: { baseDelayMs: 10 },
    });
    const first = await connection(0);
    expect(await first.subscribe).toEqual({
      type: "subscribe",
      topics: ["division:d1"],
      compact: true,
    });
    first.socket.close(1011);
    expect((await (await connection(1)).subscribe).compact).toBe(true);
    sub.close();
  });

  it("does not reconnect after the server refuses the subscription (close code 1008)", async () => {
    const errors: LiveEventsError[] = [];
    const sub = client().events.subscribe(["division:secret"], {
      onEvent: () => undefined,
      onError: (e) => errors.push(e),
      reconnect: { baseDelayMs: 10 },
    });
    const c = await connection(0);
    await c.subscribe;
    c.socket.close(1008, "not allowed");
    await sub.closed;
    expect(errors[0]).toBeInstanceOf(LiveEventsError);
    expect(errors[0]?.closeCode).toBe(1008);
    await new Promise((r) => setTimeout(r, 60));
    expect(connections).toHaveLength(1);
  });

  it("reports server error notices and messages that are not JSON, and goes on", async () => {
    const errors: string[] = [];
    const received: number[] = [];
    const sub = client().events.subscribe(["division:d1"], {
      onEvent: (e) => received.push(e.seq),
      onError: (e) => errors.push(e.message),
    });
    const c = await connection(0);
    await c.subscribe;
    send(c, { type: "error", message: "unknown topic division:x" });
    c.socket.send("{oops");
    send(c, event(5));
    await until(() => received.length === 1);
    expect(errors).toEqual([
      "live events: unknown topic division:x",
      "live events: a message that is not JSON",
    ]);
    sub.close();
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const sub = client().events.subscribe(["division:d1"], {
      onEvent: () => undefined,
      signal: controller.signal,
    });
    await (
      await connection(0)
    ).subscribe;
    controller.abort();
    await sub.closed;
    expect(sub.status).toBe("closed");
  });
});
