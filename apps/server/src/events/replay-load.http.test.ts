// The `since_seq` replay DoS: a hundred anonymous sockets replaying a long log (half of them
// never reading) must not starve the server — `/healthz` keeps answering while they run — and
// one address cannot open more live-events sockets than its cap (the N+1th is closed, 4029).
// The unfixed server stopped answering /healthz altogether under this flood.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";

import { startReplicaProcess, type ReplicaProcess } from "../../testing/replica-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";
import { eventsUrl } from "../../testing/test-socket.ts";
import { withEvents } from "./record.ts";

const SOCKETS = 100;
const EVENTS = Number(process.env.REPLAY_EVENTS ?? 10_000);
/**
 * /healthz keeps answering through the flood: every answer within this bound. The unfixed server
 * stopped answering altogether (one answer after 8–57 s, once the flood was over); the next one
 * answered, but its first answer waited 6–8 s on a quiet machine: libuv accepts one connection a
 * turn of the event loop, and the replays held each turn for 0.2–1.2 s, so the probe's connection
 * waited behind the flood's own in the accept queue. Replays now take one short unit a turn
 * (events/replay-turns.ts): 110–136 ms at worst, 2 ms at the median.
 */
const HEALTHZ_MAX_MS = 2000;
const HEALTHZ_MIN_ANSWERS = 5;
const CAP = 5;
/** The close code of a socket over its address's (or user's) cap. */
const CLOSE_TOO_MANY = 4029;

let t: TestServer;
let capped: TestServer;
/** The server under the flood, a process of its own: the test's own clients (which read half a
 * million messages) do not share its event loop, so /healthz's latency is the server's. */
let flooded: ReplicaProcess | undefined;
const sockets = new Set<WebSocket>();

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  capped = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER: "off",
      GAUNTLET_EVENTS_MAX_SOCKETS_PER_ADDRESS: String(CAP),
      GAUNTLET_EVENTS_MAX_SOCKETS_PER_USER: String(CAP),
    },
  });
}, 60_000);
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  for (const socket of raws) socket.destroy();
  for (const probe of probes) probe.kill();
  await flooded?.kill();
  await t?.close();
  await capped?.close();
});

const raws = new Set<Socket>();
const probes = new Set<ChildProcess>();

/**
 * A bare TCP client of `/v2/events` that subscribes with `since_seq` and reads without parsing
 * frames (a byte search for the ack), so that a hundred of them cost the test next to nothing:
 * `read` false never reads at all. Settles once the ack (sent after the replay) has arrived
 * ("acked"), or once the server closed the socket first ("closed": a reader too slow to keep up,
 * on a machine busy enough that this test's process did not read for the server's grace).
 */
function rawReplay(
  url: string,
  topic: string,
  read: boolean,
): Promise<"acked" | "closed" | "paused"> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  raws.add(socket);
  const payload = Buffer.from(JSON.stringify({ type: "subscribe", topics: [topic], since_seq: 0 }));
  const mask = randomBytes(4);
  const frame = Buffer.concat([
    Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]),
    mask,
    payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)),
  ]);
  socket.write(
    `GET /v2/events HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  return new Promise((resolve, reject) => {
    let upgraded = false;
    let tail = "";
    socket.on("error", reject);
    socket.on("close", () => resolve("closed"));
    socket.on("data", (chunk: Buffer) => {
      if (!upgraded) {
        upgraded = chunk.includes("101 Switching Protocols");
        if (!upgraded) return reject(new Error(chunk.toString("latin1")));
        socket.write(frame);
        if (!read) {
          socket.pause();
          resolve("paused");
        }
        return;
      }
      const text = tail + chunk.toString("latin1", Math.max(0, chunk.length - 4096));
      if (chunk.includes('"type":"subscribed"') || text.includes('"type":"subscribed"'))
        resolve("acked");
      tail = text.slice(-64);
    });
  });
}

/** /healthz asked every 50 ms from a process of its own until stopped: its latencies are the
 * server's, not this process's, which reads the readers' replays meanwhile (on a busy machine
 * that reading alone delayed an in-process probe past the bound). */
function startHealthzProbe(url: string): {
  stop(): Promise<{ latencies: number[]; errors: string[] }>;
} {
  const script = `
    let running = true;
    process.stdin.on("data", () => { running = false; });
    process.stdin.resume();
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(process.argv[1] + "/healthz");
        await res.arrayBuffer();
        process.stdout.write("ms " + (performance.now() - started) + "\\n");
      } catch (error) {
        process.stdout.write("error " + String(error).replace(/\\n/g, " ") + "\\n");
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    process.exit(0);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, url], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  probes.add(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    async stop() {
      child.stdin.write("stop\n");
      await exited;
      const lines = output.split("\n");
      return {
        latencies: lines.flatMap((l) => (l.startsWith("ms ") ? [Number(l.slice(3))] : [])),
        errors: lines.flatMap((l) => (l.startsWith("error ") ? [l.slice(6)] : [])),
      };
    },
  };
}

function open(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(eventsUrl(url), { headers });
  sockets.add(ws);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => {
      sockets.delete(ws);
      resolve({ code, reason: reason.toString("utf8") });
    }),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.on("open", () => resolve());
    ws.on("error", reject);
  });
  return { ws, closed, opened };
}

describe("live-events sockets under a replay flood", () => {
  it(`/healthz keeps answering (each within ${HEALTHZ_MAX_MS} ms) while ${SOCKETS} sockets replay`, async () => {
    const tl = await createTestLeague(t);
    const division = tl.divisions[0];
    if (!division) throw new Error("no division");
    const { db, bus } = t.server.leaguePlay;
    await withEvents(db, bus, async (_trx, emit) => {
      for (let i = 0; i < EVENTS; i += 1)
        emit({
          type: "division_quiet",
          refs: {
            league: { id: tl.league.id, name: tl.league.name },
            division: { id: division.id, name: division.name },
          },
          headline: `event ${i}`,
          summary: "x".repeat(300),
        });
    });
    // Its cap is above the hundred sockets: what is under test here is the replay itself.
    flooded = await startReplicaProcess(t.testStore, {
      GAUNTLET_SCHEDULER: "off",
      GAUNTLET_EVENTS_MAX_SOCKETS_PER_ADDRESS: "1000",
    });
    const target = flooded.url;
    const topic = `division:${division.id}`;
    const probe = startHealthzProbe(target);
    // Four in five never read what they are sent (the stalling attacker); the rest read it all.
    // Every one of them starts its replay at once, which is what starved the unfixed server; the
    // readers make the server write their 10,000 events each (CI ran past 300 s with half of
    // them reading: half a million messages on a machine shared with the other suites).
    const done = await Promise.all(
      Array.from({ length: SOCKETS }, (_, n) => rawReplay(target, topic, n % 5 === 0)),
    );
    const { latencies, errors: probeErrors } = await probe.stop();
    expect(probeErrors).toEqual([]);
    expect(done).toHaveLength(SOCKETS);
    expect(done.filter((d) => d === "paused")).toHaveLength(SOCKETS * 0.8);
    // Most readers read it all; one the server let go as too slow is the server protecting itself.
    const acked = done.filter((d) => d === "acked").length;
    expect(acked).toBeGreaterThan(0);
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? Number.POSITIVE_INFINITY;
    const worst = sorted[sorted.length - 1] ?? Number.POSITIVE_INFINITY;
    process.stdout.write(
      `replay flood: ${acked} of ${SOCKETS * 0.2} readers read their whole replay; /healthz answered ${latencies.length} times, median ${median.toFixed(0)} ms, max ${worst.toFixed(0)} ms\n`,
    );
    expect(latencies.length).toBeGreaterThanOrEqual(HEALTHZ_MIN_ANSWERS);
    expect(worst).toBeLessThan(HEALTHZ_MAX_MS);
    // 200,000 messages to read; what is under test is /healthz meanwhile, not the pace.
  }, 480_000);

  it(`refuses the socket over an address's cap of ${CAP} with ${CLOSE_TOO_MANY}, and one over a user's`, async () => {
    const first = Array.from({ length: CAP }, () => open(capped.url));
    await Promise.all(first.map((s) => s.opened));
    const over = open(capped.url);
    expect(await over.closed).toEqual({
      code: CLOSE_TOO_MANY,
      reason: expect.stringContaining(`${CAP} open live-events sockets`) as string,
    });
    // One closed makes room again.
    first[0]?.ws.close();
    await first[0]?.closed;
    const again = open(capped.url);
    await again.opened;
    again.ws.send(JSON.stringify({ type: "subscribe", topics: ["episode-requests:mine"] }));
    // A user's sockets count apart from the address's anonymous ones, up to the user's own cap.
    const user = await capped.newUser();
    const auth = { authorization: `Bearer ${user.token}` };
    const mine = Array.from({ length: CAP }, () => open(capped.url, auth));
    await Promise.all(mine.map((s) => s.opened));
    const overMine = open(capped.url, auth);
    expect((await overMine.closed).code).toBe(CLOSE_TOO_MANY);
  }, 60_000);
});
