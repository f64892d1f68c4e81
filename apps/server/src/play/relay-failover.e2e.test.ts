// The replica holding the runner's relay of a hosted game dies mid-game. Two replicas share one
// store and one Redis of the test's own, behind a balancer of the test's own (a TCP proxy that
// sends each connection to the first replica that accepts it: B while it lives, then A). B gives
// the balancer's address as the public one, so the runner (a real process, reaching the service
// through the balancer) leases from B and its relay for the people reaches B; the people play on
// A. B is SIGKILLed after turn 0 reached the people: the runner's relay connects again through
// the balancer (to A), the game's later turns reach the people, and the session completes.
import { randomBytes } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createHostedDuel, joinHostedGame } from "../../testing/hosted-play.ts";
import {
  client,
  createTestStore,
  startRedisProcess,
  startReplicaProcess,
  startTestServer,
  type RedisProcess,
  type ReplicaProcess,
  type TestServer,
  type TestStore,
} from "../../testing/index.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";
import { RedisMessageBus } from "../events/message-bus.ts";

let redis: RedisProcess;
let shared: TestStore;
let a: TestServer;
let b: ReplicaProcess;
let balancer: Server;
let listener: RedisMessageBus;
let runner: RunnerProcess;
/** The balancer's backends, in the order it tries them. */
const backends: { host: string; port: number }[] = [];

/** Pipes `client` to the first backend that accepts a connection. */
function forward(client: Socket, index = 0): void {
  const backend = backends[index];
  if (!backend) return void client.destroy();
  const upstream = connect(backend.port, backend.host);
  upstream.once("error", () => {
    if (upstream.bytesRead === 0 && upstream.bytesWritten === 0) forward(client, index + 1);
    else client.destroy();
  });
  upstream.once("connect", () => {
    client.pipe(upstream).pipe(client);
    client.once("error", () => upstream.destroy());
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
}

function backend(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}

beforeAll(async () => {
  redis = await startRedisProcess();
  const channel = `gauntlet:test:${randomBytes(4).toString("hex")}`;
  const env = { GAUNTLET_SCHEDULER: "off", REDIS_URL: redis.url, GAUNTLET_EVENTS_CHANNEL: channel };
  balancer = createServer((socket) => forward(socket));
  await new Promise<void>((resolve) => balancer.listen(0, "127.0.0.1", resolve));
  const address = balancer.address();
  if (address === null || typeof address === "string") throw new Error("the balancer has no port");
  const balancerUrl = `http://127.0.0.1:${address.port}`;
  shared = await createTestStore();
  a = await startTestServer({ testStore: shared, env });
  b = await startReplicaProcess(shared, { ...env, GAUNTLET_PUBLIC_URL: balancerUrl });
  backends.push(backend(b.url), backend(a.url));
  listener = new RedisMessageBus({ url: redis.url, channel: `${channel}:play` });
  await listener.ready();
  runner = await startRunnerProcess(a, "relay-failover", 1, [balancerUrl]);
}, 120_000);

afterAll(async () => {
  await runner?.stop();
  await listener?.close();
  await b?.kill();
  await a?.close();
  await new Promise((resolve) => balancer?.close(resolve));
  await shared?.cleanup();
  await redis?.kill();
}, 60_000);

/** A person's program: answers each turn once `go` says so; records the turns and the closing code. */
function person(url: string, first: string, go: () => Promise<void>) {
  const turns: number[] = [];
  const notices: string[] = [];
  const socket = new WebSocket(url);
  socket.addEventListener("message", (event: MessageEvent) => {
    const message = JSON.parse(String(event.data)) as {
      type: string;
      turn?: number;
      state?: string;
    };
    if (message.type === "gauntlet.connection") notices.push(message.state ?? "");
    if (message.type !== "turn" || message.turn === undefined) return;
    const turn = message.turn;
    turns.push(turn);
    void go().then(() =>
      socket.send(JSON.stringify({ type: "move", turn, move: turn === 0 ? first : "stay" })),
    );
  });
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener("close", (event) => resolve(event.code)),
  );
  return { turns, notices, closed };
}

describe("the replica holding the runner's relay dies mid-game", () => {
  it("the relay reconnects through the balancer, the game goes on to the people, and completes", async () => {
    const tl = await createTestLeague(a);
    const api = client(a.url, tl.commissioner.token);
    const created = await createHostedDuel(a.url, tl);
    expect(created.status, created.text).toBe(200);
    const id = created.body.session_id;

    // The seat of every game side that says hello on the bus (on B at first; on A once back).
    const gameHellos: number[] = [];
    listener.subscribe((message) => {
      const m = message as { t?: string; s?: string; side?: string; p?: number };
      if (m.t === "hello" && m.s === id && m.side === "game") gameHellos.push(m.p ?? -1);
    });
    // Turn 0 waits for the kill and for the relay's new connection: the moves go to the game
    // through A, and the game's later turns reach the people only through the new connection.
    // The kill waits for turn 0 to reach both people: a frame passing through B as it dies is
    // lost with it.
    let killing: Promise<void> | null = null;
    const people: ReturnType<typeof person>[] = [];
    const afterKill = () =>
      (killing ??= (async () => {
        await eventually("turn 0 to reach both people", async () =>
          people.length === 2 && people.every((p) => p.turns.length > 0) ? true : null,
        );
        const before = gameHellos.length;
        await b.kill();
        await eventually("the runner's relay of both seats to connect again", async () =>
          new Set(gameHellos.slice(before)).size === 2 ? true : null,
        );
      })());
    for (const first of ["E", "stay"]) {
      const joined = await joinHostedGame(a.url, id);
      expect(joined.status, joined.text).toBe(200);
      people.push(person(joined.body.player_url, first, afterKill));
    }

    const ended = await eventually(
      "the hosted game to end",
      async () => {
        const read = (await api.get<{ status: string }>(`/v2/coworlds/play/session/${id}`)).body;
        return ["completed", "failed", "cancelled"].includes(read.status) ? read : null;
      },
      180_000,
    );
    const why = `${JSON.stringify(ended)}\n${runner.output().slice(-3000)}`;
    expect(killing, why).not.toBeNull();
    expect(ended.status, why).toBe("completed");
    // Each seat's relay said hello twice: on B before the kill, on A after it.
    expect(gameHellos.filter((p) => p === 0)).toHaveLength(2);
    expect(gameHellos.filter((p) => p === 1)).toHaveLength(2);
    for (const p of people) {
      expect(p.turns).toEqual([0, 1, 2]);
      expect(await p.closed).toBe(1000);
    }
  }, 300_000);
});
