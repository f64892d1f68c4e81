// The meeting of a commissioner session's two ends on two replicas: the runner's socket on one,
// the driver's side on the other, over one message bus. The socket's replica is cut off from the
// bus (a partition, as when it dies) to show the driver's side counts the session gone.
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
  return { toB, a, runner, heard, ends, attached: () => attached };
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
    const r = await twoReplicas();
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
});
