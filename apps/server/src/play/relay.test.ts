// Two replicas' relays on one bus (this process's own, as Redis would carry it between
// processes), with real WebSockets: each socket reaches the relay its path names.
import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";

import { LocalMessageBus } from "../events/message-bus.ts";
import { PlayRelay } from "./relay.ts";

const bus = new LocalMessageBus();
const relays = { a: new PlayRelay(bus), b: new PlayRelay(bus) };
const servers: FastifyInstance[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A server whose `/{a|b}/{game|browser}` sockets attach to seat 0 of session s1 on that relay. */
async function listen(): Promise<string> {
  const server = Fastify();
  servers.push(server);
  await server.register(websocket);
  server.get("/:replica/:side", { websocket: true }, (socket, request) => {
    const { replica, side } = request.params as { replica: string; side: string };
    const relay = replica === "a" ? relays.a : relays.b;
    relay.attach("s1", 0, side === "game" ? "game" : "browser", socket);
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
    relays.a.closeSession("s1", "the session was terminated");
    expect(await page.closed).toBe(4410);
    expect(await game.closed).toBe(1000);
  });
});
