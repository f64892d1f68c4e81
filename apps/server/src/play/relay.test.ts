// Two replicas' relays on one bus (this process's own, as Redis would carry it between
// processes), with real WebSockets: each socket reaches the relay its path names. The relays of
// the game-side tests beat fast and give an absent game side one second to come back; one of
// them is on a bus the test can cut, as a replica that dies says nothing more.
import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";

import { LocalMessageBus, type MessageBus } from "../events/message-bus.ts";
import { PlayRelay, type PlayRelayOptions } from "./relay.ts";

const bus = new LocalMessageBus();
/** The bus as a replica that dies sees it: once cut, what it says reaches no one. */
let cut = false;
const cuttable: MessageBus = {
  publish: (message) => (cut ? undefined : bus.publish(message)),
  subscribe: (listener) => bus.subscribe((message) => (cut ? undefined : listener(message))),
  close: async () => undefined,
};
const lost: { session: string; position: number; reason: string }[] = [];
const fast: PlayRelayOptions = {
  timing: { beatMs: 50, absentMs: 300, restoreMs: 1_000 },
  onGameLost: async (session, position, reason) => void lost.push({ session, position, reason }),
};
const a = new PlayRelay(bus);
const relays: Record<string, PlayRelay> = {
  a,
  b: new PlayRelay(bus),
  // Seat 0 of session s2.
  c: new PlayRelay(bus, fast),
  d: new PlayRelay(bus, fast),
  dying: new PlayRelay(cuttable, fast),
  // Session s3: a seat's game side may go 600 ms without a page.
  idle: new PlayRelay(bus, { ...fast, timing: { ...fast.timing, aloneMs: 600 } }),
  idle2: new PlayRelay(bus, { ...fast, timing: { ...fast.timing, aloneMs: 600 } }),
};
const servers: FastifyInstance[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  cut = false;
  lost.length = 0;
});

/**
 * A server whose `/{replica}/{game|browser}` sockets attach to seat 0 of session s1 (replicas a
 * and b), s3 (idle, idle2) or s2 (the others) on that relay; a page on s2 is told its session is playing.
 */
async function listen(): Promise<string> {
  const server = Fastify();
  servers.push(server);
  await server.register(websocket);
  server.get("/:replica/:side", { websocket: true }, (socket, request) => {
    const { replica, side } = request.params as { replica: string; side: string };
    const relay = relays[replica];
    if (!relay) return void socket.close(4404);
    const session =
      replica === "a" || replica === "b" ? "s1" : replica.startsWith("idle") ? "s3" : "s2";
    relay.attach(session, 0, side === "game" ? "game" : "browser", socket, session === "s2");
  });
  const address = await server.listen({ port: 0, host: "127.0.0.1" });
  return address.replace(/^http/, "ws");
}

interface Peer {
  socket: WebSocket;
  received: string[];
  closed: Promise<number>;
}

async function connect(url: string): Promise<Peer> {
  const socket = new WebSocket(url);
  const received: string[] = [];
  socket.addEventListener("message", (event: MessageEvent) => received.push(String(event.data)));
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener("close", (event) => resolve(event.code)),
  );
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });
  return { socket, received, closed };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("PlayRelay across replicas", () => {
  it("passes frames both ways in order, what the game said before the page came included", async () => {
    const url = await listen();
    const game = await connect(`${url}/a/game`);
    game.socket.send("turn 0");
    game.socket.send("turn 0, again");
    const page = await connect(`${url}/b/browser`);
    await until("the queued frames", () => page.received.length === 2);
    expect(page.received).toEqual(["turn 0", "turn 0, again"]);
    page.socket.send("move E");
    await until("the move", () => game.received.length === 1);
    expect(game.received).toEqual(["move E"]);
    // The game ends the seat: the page is closed by the other replica.
    game.socket.close(1000);
    expect(await page.closed).toBe(1000);
  });

  it("a page reloaded on the other replica replaces the first; the game talks to the new one", async () => {
    const url = await listen();
    const game = await connect(`${url}/a/game`);
    const first = await connect(`${url}/a/browser`);
    first.socket.send("hello from the first page");
    await until("the first page's frame", () => game.received.length === 1);
    const second = await connect(`${url}/b/browser`);
    expect(await first.closed).toBe(4000);
    game.socket.send("turn 1");
    await until("the frame on the new page", () => second.received.includes("turn 1"));
    second.socket.send("move W");
    await until("the new page's move", () => game.received.includes("move W"));
    expect(first.received).not.toContain("turn 1");
  });

  it("ending the session closes every socket of it on every replica", async () => {
    const url = await listen();
    const game = await connect(`${url}/a/game`);
    const page = await connect(`${url}/b/browser`);
    a.closeSession("s1", "the session was terminated");
    expect(await page.closed).toBe(4410);
    expect(await game.closed).toBe(1000);
  });
});

/** The server's own frames on a page (gauntlet.connection), by state. */
const notices = (peer: Peer): string[] =>
  peer.received
    .filter((frame) => frame.startsWith("{"))
    .map((frame) => JSON.parse(frame) as { type?: string; state?: string })
    .filter((frame) => frame.type === "gauntlet.connection")
    .map((frame) => frame.state ?? "");

describe("the game side of a seat lost and restored", () => {
  it("a dropped game side: the page is told, its moves wait, and a game side back on the other replica gets them", async () => {
    const url = await listen();
    const game = await connect(`${url}/c/game`);
    const page = await connect(`${url}/d/browser`);
    game.socket.send(JSON.stringify({ turn: 0 }));
    await until("turn 0 on the page", () => page.received.length === 1);
    // Not an end (1000): a connection that dropped.
    game.socket.close(4500);
    await until("the page told", () => notices(page).includes("restoring"));
    page.socket.send("move E");
    const back = await connect(`${url}/d/game`);
    await until("the move", () => back.received.includes("move E"));
    await until("the page told again", () => notices(page).includes("restored"));
    back.socket.send(JSON.stringify({ turn: 1 }));
    await until("turn 1 on the page", () => page.received.includes(JSON.stringify({ turn: 1 })));
    expect(notices(page)).toEqual(["restoring", "restored"]);
    expect(lost).toEqual([]);
    // The game's own end still ends the page's seat.
    back.socket.close(1000);
    expect(await page.closed).toBe(1000);
  });

  it("a replica that dies without a word holding the game side: the page is told within a few beats", async () => {
    const url = await listen();
    const game = await connect(`${url}/dying/game`);
    const page = await connect(`${url}/c/browser`);
    game.socket.send("turn 0");
    await until("turn 0 on the page", () => page.received.includes("turn 0"));
    cut = true;
    await until("the page told", () => notices(page).includes("restoring"));
    const back = await connect(`${url}/d/game`);
    back.socket.send("turn 1");
    await until("turn 1 on the page", () => page.received.includes("turn 1"));
    expect(notices(page)).toEqual(["restoring", "restored"]);
  });

  it("a game side that does not come back in time fails the seat, and the page is closed with the reason", async () => {
    const url = await listen();
    const game = await connect(`${url}/c/game`);
    const page = await connect(`${url}/d/browser`);
    game.socket.send("turn 0");
    await until("turn 0 on the page", () => page.received.includes("turn 0"));
    game.socket.close(4500);
    expect(await page.closed).toBe(4410);
    expect(notices(page)).toEqual(["restoring"]);
    expect(lost).toEqual([
      {
        session: "s2",
        position: 0,
        reason: "the game's connection to seat 0 was lost and not restored within 1 s",
      },
    ]);
  });

  it("a page that joins a playing seat whose game side is gone is told, and the seat fails in time", async () => {
    const url = await listen();
    const page = await connect(`${url}/c/browser`);
    expect(await page.closed).toBe(4410);
    expect(notices(page)).toEqual(["restoring"]);
    expect(lost).toHaveLength(1);
  });
});

// A person who closed the page (or never opened it) left the game waiting for their move: the
// session held a runner's slot until its one-hour deadline.
describe("a seat nobody plays", () => {
  it("ends its session once its game side has had no page for the allowed time", async () => {
    const url = await listen();
    const game = await connect(`${url}/idle/game`);
    expect(await game.closed).toBe(1000);
    expect(lost).toEqual([
      { session: "s3", position: 0, reason: "no one played seat 0 for 1 s: the session ended" },
    ]);
  });

  it("keeps it while a page plays, on another replica too, and ends it once the page is gone", async () => {
    const url = await listen();
    const game = await connect(`${url}/idle/game`);
    const page = await connect(`${url}/idle2/browser`);
    game.socket.send("turn 0");
    await until("turn 0 on the page", () => page.received.includes("turn 0"));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(lost).toEqual([]);
    page.socket.close(1000);
    const started = Date.now();
    expect(await game.closed).toBe(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(lost).toHaveLength(1);
  });
});
