// The two WebSockets of a human slot meet here: the runner's (`…/relay`, bridged to the game's
// player socket) and the player's (`…/socket`: the browser's client, or a program). Each slot's
// tokens say which slot a socket is for. The two may reach different replicas, so they meet over
// a message bus (Redis when configured; this process's own otherwise): each replica holds the
// sockets that reached it, says on the bus when one attaches or closes, and sends what a socket
// says to the other side's replica. Frames pass unchanged; what one side sends before the other
// is known to be there waits in a bounded queue on its own replica.
import { randomUUID } from "node:crypto";

import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { RawData, WebSocket } from "ws";

import type { MessageBus } from "../events/message-bus.ts";
import type { Database } from "../store/schema.ts";
import { admitSocket, type SocketSide } from "./sessions.ts";

const OPERATIONS: Record<string, SocketSide> = {
  playSessionSocket: "browser",
  playSessionRelay: "game",
};
/** The contract operations this relay answers as WebSocket upgrades. */
export const PLAY_RELAY_OPERATION_IDS: readonly string[] = Object.keys(OPERATIONS);
const MAX_QUEUED = 1_000;

type Side = SocketSide;

/** What the replicas say to each other about a seat (`s` session id, `p` slot position). */
type RelayMessage =
  /** A socket of `side` attached (`from` names the attachment); `here` answers a `hello`. */
  | { t: "hello" | "here"; s: string; p: number; side: Side; from: string }
  /** A socket of `side` closed. */
  | { t: "gone"; s: string; p: number; side: Side; from: string }
  /** A text frame for the socket of side `to`. */
  | { t: "frame"; s: string; p: number; to: Side; data: string }
  /** The session was ended: every socket of it closes. */
  | { t: "end"; s: string; reason: string };

/** A socket this replica holds. */
interface Held {
  socket: WebSocket;
  id: string;
  /** The attachment of the other side this socket's frames go to; null while none is known. */
  peer: string | null;
  /** Its frames sent while no peer was known. */
  queue: string[];
}

interface Seat {
  game: Held | null;
  browser: Held | null;
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString("utf8");
}

function isRelayMessage(value: unknown): value is RelayMessage {
  if (typeof value !== "object" || value === null) return false;
  if (!("t" in value) || !("s" in value) || typeof value.s !== "string") return false;
  if (value.t === "end") return "reason" in value && typeof value.reason === "string";
  if (!("p" in value) || typeof value.p !== "number") return false;
  if (value.t === "frame")
    return (
      "to" in value &&
      (value.to === "game" || value.to === "browser") &&
      "data" in value &&
      typeof value.data === "string"
    );
  return (
    (value.t === "hello" || value.t === "here" || value.t === "gone") &&
    "side" in value &&
    (value.side === "game" || value.side === "browser") &&
    "from" in value &&
    typeof value.from === "string"
  );
}

const otherSide = (side: Side): Side => (side === "game" ? "browser" : "game");

export class PlayRelay {
  /** Keyed by session id, then slot position: the sockets this replica holds. */
  private readonly sessions = new Map<string, Map<number, Seat>>();
  private readonly bus: MessageBus;
  private readonly unsubscribe: () => void;

  constructor(bus: MessageBus) {
    this.bus = bus;
    this.unsubscribe = bus.subscribe((message) => {
      if (isRelayMessage(message)) this.receive(message);
    });
  }

  private seat(id: string, position: number): Seat {
    let slots = this.sessions.get(id);
    if (!slots) {
      slots = new Map();
      this.sessions.set(id, slots);
    }
    let seat = slots.get(position);
    if (!seat) {
      seat = { game: null, browser: null };
      slots.set(position, seat);
    }
    return seat;
  }

  private dropIfEmpty(id: string, position: number): void {
    const slots = this.sessions.get(id);
    const seat = slots?.get(position);
    if (seat && !seat.game && !seat.browser) slots?.delete(position);
    if (slots?.size === 0) this.sessions.delete(id);
  }

  private send(message: RelayMessage): void {
    this.bus.publish(message);
  }

  /** The other side is known to be at `peer`: what waited goes now, in order. */
  private meet(held: Held, s: string, p: number, to: Side, peer: string): void {
    held.peer = peer;
    for (const data of held.queue.splice(0)) this.send({ t: "frame", s, p, to, data });
  }

  attach(id: string, position: number, side: SocketSide, socket: WebSocket): void {
    const seat = this.seat(id, position);
    const mine = side;
    const other = otherSide(mine);
    // A browser that joins again (a reload) replaces the old page (on another replica too, when
    // it hears the hello); a second game side is refused.
    const previous = seat[mine];
    if (previous && side === "game")
      return void socket.close(4409, "this seat's game is already connected");
    const held: Held = { socket, id: randomUUID(), peer: null, queue: [] };
    seat[mine] = held;
    previous?.socket.close(4000, "joined from another page");
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      const frame = text(data);
      if (held.peer !== null) this.send({ t: "frame", s: id, p: position, to: other, data: frame });
      else if (held.queue.length < MAX_QUEUED) held.queue.push(frame);
    });
    socket.on("close", () => {
      if (seat[mine] === held) seat[mine] = null;
      this.dropIfEmpty(id, position);
      this.send({ t: "gone", s: id, p: position, side: mine, from: held.id });
    });
    this.send({ t: "hello", s: id, p: position, side: mine, from: held.id });
  }

  private receive(message: RelayMessage): void {
    if (message.t === "end") {
      for (const seat of this.sessions.get(message.s)?.values() ?? []) {
        seat.browser?.socket.close(4410, message.reason);
        seat.game?.socket.close(1000, message.reason);
      }
      return;
    }
    const seat = this.sessions.get(message.s)?.get(message.p);
    if (!seat) return;
    if (message.t === "frame") {
      const target = seat[message.to]?.socket;
      if (target && target.readyState === target.OPEN) target.send(message.data);
      return;
    }
    const { s, p, side, from } = message;
    const mine = otherSide(side);
    const held = seat[mine];
    const same = seat[side];
    if (message.t === "hello") {
      // A page joined again on another replica: this one's page is replaced.
      if (side === "browser" && same && same.id !== from)
        same.socket.close(4000, "joined from another page");
      if (held) {
        this.meet(held, s, p, side, from);
        this.send({ t: "here", s, p, side: mine, from: held.id });
      }
    } else if (message.t === "here") {
      if (held && held.peer !== from) this.meet(held, s, p, side, from);
    } else {
      if (held?.peer === from) held.peer = null;
      // The game closed the seat: the episode is over for the person too.
      if (side === "game" && held) held.socket.close(1000, "the game ended");
    }
  }

  /** Closes every socket of a session, on every replica (the session was ended). */
  closeSession(id: string, reason: string): void {
    this.send({ t: "end", s: id, reason });
  }

  /** Sessions with a socket attached to this replica (tests, metrics). */
  get size(): number {
    return this.sessions.size;
  }

  close(): void {
    this.unsubscribe();
  }
}

/** Call before the contract's routes are registered and before the WebSocket plugin is. */
export function installPlayRelay(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; relay: PlayRelay },
): void {
  app.addHook("onRoute", (route) => {
    const side = OPERATIONS[route.config?.op?.id ?? ""];
    if (side === undefined) return;
    route.wsHandler = (socket, request) => {
      const params = request.params as { play_session_id?: string };
      const query = request.query as { token?: string };
      const id = params.play_session_id ?? "";
      socket.pause();
      admitSocket(deps.db, id, side, query.token ?? "")
        .then(({ admitted, position }) => {
          if (admitted === "unknown") return socket.close(4401, "unknown session or wrong token");
          if (admitted === "ended") return socket.close(4410, "the session has ended");
          deps.relay.attach(id, position, side, socket);
          socket.resume();
        })
        .catch((error: unknown) => {
          request.log.error({ err: error }, "play relay: admitting a socket failed");
          socket.close(1011, "the server failed");
        });
    };
  });
}
