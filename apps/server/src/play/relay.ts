// The two WebSockets of a human slot meet here: the runner's (`…/relay`, bridged to the game's
// player socket) and the player's (`…/socket`: the browser's client, or a program). Each slot's
// tokens say which slot a socket is for. Frames pass unchanged; what one side sends before the
// other has joined waits in a bounded queue. The pairing lives in this process, so with several
// replicas both sockets of a session must reach the same one (route `/v2/play-sessions/{id}/…`
// by id at the load balancer).
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { RawData, WebSocket } from "ws";

import type { Database } from "../store/schema.ts";
import { admitSocket, type SocketSide } from "./sessions.ts";

const OPERATIONS: Record<string, SocketSide> = {
  playSessionSocket: "browser",
  playSessionRelay: "game",
};
const MAX_QUEUED = 1_000;

interface Seat {
  game: WebSocket | null;
  browser: WebSocket | null;
  toGame: string[];
  toBrowser: string[];
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString("utf8");
}

export class PlayRelay {
  /** Keyed by session id, then slot position. */
  private readonly sessions = new Map<string, Map<number, Seat>>();

  private seat(id: string, position: number): Seat {
    let slots = this.sessions.get(id);
    if (!slots) {
      slots = new Map();
      this.sessions.set(id, slots);
    }
    let seat = slots.get(position);
    if (!seat) {
      seat = { game: null, browser: null, toGame: [], toBrowser: [] };
      slots.set(position, seat);
    }
    return seat;
  }

  private drop(id: string, position: number): void {
    const slots = this.sessions.get(id);
    slots?.delete(position);
    if (slots?.size === 0) this.sessions.delete(id);
  }

  attach(id: string, position: number, side: SocketSide, socket: WebSocket): void {
    const seat = this.seat(id, position);
    const mine = side === "game" ? "game" : "browser";
    const other = side === "game" ? "browser" : "game";
    const inbox = side === "game" ? "toGame" : "toBrowser";
    const outbox = side === "game" ? "toBrowser" : "toGame";
    // A browser that joins again (a reload) replaces the old page; a second game side is refused.
    const previous = seat[mine];
    if (previous && side === "game")
      return void socket.close(4409, "this seat's game is already connected");
    previous?.close(4000, "joined from another page");
    seat[mine] = socket;
    for (const frame of seat[inbox].splice(0)) socket.send(frame);
    socket.on("message", (data, isBinary) => {
      const frame = isBinary ? null : text(data);
      if (frame === null) return;
      const peer = seat[other];
      if (peer && peer.readyState === peer.OPEN) peer.send(frame);
      else if (seat[outbox].length < MAX_QUEUED) seat[outbox].push(frame);
    });
    socket.on("close", () => {
      if (seat[mine] !== socket) return;
      seat[mine] = null;
      if (side === "game") {
        // The game closed the seat: the episode is over for the person too.
        seat.browser?.close(1000, "the game ended");
        this.drop(id, position);
      }
    });
  }

  /** Closes every socket of a session that this process holds (the session was ended). */
  closeSession(id: string, reason: string): void {
    for (const seat of this.sessions.get(id)?.values() ?? []) {
      seat.browser?.close(4410, reason);
      seat.game?.close(1000, reason);
    }
    this.sessions.delete(id);
  }

  /** Sessions with a socket attached (tests, metrics). */
  get size(): number {
    return this.sessions.size;
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
