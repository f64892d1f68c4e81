// The meeting of a commissioner session's two ends on two replicas: the runner's socket on one,
// the driver's side on the other, over one message bus. The socket's replica is cut off from the
// bus (a partition, as when it dies) to show the driver's side counts the session gone.
import { connect } from "node:net";

import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket as ServerSocket } from "ws";

import { COMMISSIONER_MESSAGE_MAX_BYTES } from "@gauntlet/core";

import { LocalMessageBus, type MessageBus } from "../../events/message-bus.ts";
import { CommissionerRelay } from "./runner-relay.ts";

/** The bus as one replica reaches it, until the test cuts it off. */
function partitionable(bus: MessageBus): MessageBus & { cut: boolean } {
  const reach = {
    cut: false,
    publish: (message: unknown) => {
      if (!reach.cut) bus.publish(message);
    },
    subscribe: (listener: (message: unknown) => void) =>
      bus.subscribe((message) => {
        if (!reach.cut) listener(message);
      }),
    close: () => Promise.resolve(),
  };
  return reach;
}

const TIMING = { beatMs: 50, absentMs: 400 };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function twoReplicas(timing = TIMING) {
  const shared = new LocalMessageBus();
  const toB = partitionable(shared);
  const a = new CommissionerRelay(shared, timing);
  const b = new CommissionerRelay(toB, timing);
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  server.on("connection", (socket: ServerSocket) => b.attach("job-1", socket));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const heard: string[] = [];
  const ends: { kind: string; why: string }[] = [];
  let attached = false;
  a.listen("job-1", {
    attached: () => (attached = true),
    message: (text) => heard.push(text),
    ended: (kind, why) => ends.push({ kind, why }),
  });
  const runner = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise((resolve) => runner.addEventListener("open", resolve, { once: true }));
  cleanups.push(() => {
    runner.close();
    a.shutdown();
    b.shutdown();
    server.close();
  });
  return { toB, a, runner, heard, ends, attached: () => attached, server, port };
}

/** A runner that opens its relay socket and then reads nothing more the server sends. */
async function deafRunner(port: number): Promise<() => void> {
  const socket = connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
  );
  await new Promise((resolve) => socket.once("data", resolve));
  socket.pause();
  return () => socket.destroy();
}

const until = async (what: string, ok: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("a commissioner session across replicas", () => {
  it("joins the runner's pieces, carries the driver's messages, and counts a silent replica gone", async () => {
    const r = await twoReplicas();
    await until("the attach", r.attached);
    r.runner.send('+{"type":');
    r.runner.send('."round_complete"}');
    await until("a message", () => r.heard.length > 0);
    expect(r.heard).toEqual(['{"type":"round_complete"}']);

    const down = new Promise<string>((resolve) =>
      r.runner.addEventListener("message", (e) => resolve(String(e.data)), { once: true }),
    );
    r.a.send("job-1", '{"type":"round_start"}');
    expect(await down).toBe('{"type":"round_start"}');

    // Its replica beats: a quiet commissioner is not a lost one.
    await new Promise((resolve) => setTimeout(resolve, TIMING.absentMs * 2));
    expect(r.ends).toEqual([]);
    r.toB.cut = true;
    await until("the session's end", () => r.ends.length > 0);
    expect(r.ends[0]?.kind).toBe("disconnected");
    expect(r.ends[0]?.why).toMatch(/silent/);
  });

  it("closes a runner's socket whose message passes 16 MiB, and says so", async () => {
    // Silence is not under test: 16 MiB sent on a loaded machine may hold a replica's beats
    // past a short absence, which would end the session as disconnected first.
    const r = await twoReplicas({ beatMs: 50, absentMs: 30_000 });
    const closed = new Promise<number>((resolve) =>
      r.runner.addEventListener("close", (e) => resolve(e.code), { once: true }),
    );
    const piece = `+${"x".repeat(32 * 1024 - 1)}`;
    for (let sent = 0; sent <= COMMISSIONER_MESSAGE_MAX_BYTES; sent += piece.length - 1)
      r.runner.send(piece);
    expect(await closed).toBe(4413);
    await until("the session's end", () => r.ends.length > 0);
    expect(r.ends[0]?.kind).toBe("oversized");
    expect(r.heard).toEqual([]);
  });

  it("ends a message of endless empty pieces as oversized instead of holding its pieces", async () => {
    // Both replicas share this process: while it reads 20,000 frames the socket's replica cannot
    // say it is alive, so the other one is told to wait longer before counting it gone.
    const r = await twoReplicas({ beatMs: 50, absentMs: 30_000 });
    const closed = new Promise<number>((resolve) =>
      r.runner.addEventListener("close", (e) => resolve(e.code), { once: true }),
    );
    // A hostile runner: pieces of nothing, never a last one. Each costs the server a slot.
    for (let i = 0; i < 20_000; i += 1) r.runner.send("+");
    expect(await closed).toBe(4413);
    await until("the session's end", () => r.ends.length > 0);
    expect(r.ends[0]?.kind).toBe("oversized");
  });

  it("fails a session whose runner sends a frame outside the framing", async () => {
    const r = await twoReplicas();
    r.runner.send('{"type":"round_complete"}');
    await until("the session's end", () => r.ends.length > 0);
    expect(r.ends[0]?.kind).toBe("malformed");
  });

  it("ends a session whose runner reads nothing the platform sends, instead of buffering it", async () => {
    const r = await twoReplicas();
    // The first socket is the well-behaved runner's; a second job's runner never reads.
    r.server.removeAllListeners("connection");
    const ends: string[] = [];
    const shared = new LocalMessageBus();
    const driver = new CommissionerRelay(shared, TIMING);
    const socketSide = new CommissionerRelay(shared, TIMING);
    const serverSockets: ServerSocket[] = [];
    r.server.on("connection", (socket: ServerSocket) => {
      serverSockets.push(socket);
      socketSide.attach("job-2", socket);
    });
    driver.listen("job-2", {
      attached: () => undefined,
      message: () => undefined,
      ended: (kind) => ends.push(kind),
    });
    const stop = await deafRunner(r.port);
    cleanups.push(() => {
      stop();
      driver.shutdown();
      socketSide.shutdown();
    });
    await until("the attach", () => serverSockets.length > 0);
    // Each episodes_rejected can echo the commissioner's request ids: megabytes a message.
    const message = JSON.stringify({ type: "episodes_rejected", pad: "x".repeat(1024 * 1024) });
    for (let i = 0; i < 96 && ends.length === 0; i += 1) {
      driver.send("job-2", message);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until("the session's end", () => ends.length > 0);
    expect(ends[0]).toBe("timeout");
    expect(serverSockets[0]?.bufferedAmount ?? 0).toBeLessThan(80 * 1024 * 1024);
  });
});
