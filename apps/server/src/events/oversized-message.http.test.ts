// A live-events message over the 64 KiB cap: the socket is closed with 1009 (message too big),
// the server stays up, and its log gets one warning line — not an error with a stack trace
// each time, which any anonymous client could repeat to fill the log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";

import { startReplicaProcess, type ReplicaProcess } from "../../testing/replica-process.ts";
import { eventsUrl } from "../../testing/test-socket.ts";
import { createTestStore, type TestStore } from "../../testing/test-store.ts";

let store: TestStore;
let replica: ReplicaProcess;

beforeAll(async () => {
  store = await createTestStore();
  replica = await startReplicaProcess(store, {
    GAUNTLET_SCHEDULER: "off",
    GAUNTLET_TEST_LOGS: "1",
  });
}, 60_000);
afterAll(async () => {
  await replica?.kill();
  await store?.cleanup();
});

function closeOf(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.on("close", (code) => resolve(code)));
}

describe("a live-events message over the cap", () => {
  it("closes that socket with 1009 and logs one warning line, no error, each time", async () => {
    for (let i = 0; i < 3; i += 1) {
      const ws = new WebSocket(eventsUrl(replica.url));
      ws.on("error", () => undefined);
      await new Promise((resolve) => ws.once("open", resolve));
      const closed = closeOf(ws);
      ws.send(JSON.stringify({ type: "subscribe", topics: ["x".repeat(100_000)] }));
      expect(await closed).toBe(1009);
    }
    // Still serving.
    expect((await fetch(`${replica.url}/healthz`)).status).toBe(200);
    const lines = replica.output().split("\n");
    const errors = lines.filter((l) => /"level":(50|60)/.test(l));
    expect(errors).toEqual([]);
    const warnings = lines.filter((l) => l.includes("a WebSocket client broke the protocol"));
    expect(warnings).toHaveLength(3);
    expect(warnings.every((l) => !l.includes('"stack"'))).toBe(true);
  });
});
