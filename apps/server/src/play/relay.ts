// The two WebSockets of a human slot meet here: the runner's (`…/relay`, bridged to the game's
// player socket) and the player's (`…/socket`: the browser's client, or a program). Each slot's
// tokens say which slot a socket is for. The two may reach different replicas, so they meet over
// a message bus (Redis when configured; this process's own otherwise): each replica holds the
// sockets that reached it, says on the bus when one attaches or closes, and sends what a socket
// says to the other side's replica. Frames pass unchanged; what one side sends before the other
// is known to be there waits in a bounded queue on its own replica.
//
// A replica that dies says nothing, so the replica holding a game side says every second that it
// still does, and the replica holding the person's page counts the game side absent after a few
// silent seconds (or at once when it closed abnormally). The runner's relay reconnects through
// the balancer meanwhile; the page is told while the game side is absent and when it is back, and
// a seat whose game side does not come back in time fails.
//
// A seat nobody plays holds a runner's slot as long as its game waits for a move: so the replica
// holding a game side ends the session once that side has had no person's page for `aloneMs`
// (the page closed and not opened again, or never opened).
import { randomUUID } from "node:crypto";

import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { RawData, WebSocket } from "ws";

import type { PlaySocketNotice } from "@gauntlet/core";

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

export interface RelayTiming {
  /** How often a replica says that it still holds a game side. */
  beatMs: number;
  /** The silence after which a game side counts as absent (its replica died without a word). */
  absentMs: number;
  /** How long an absent game side has to come back before its seat fails. */
  restoreMs: number;
  /** How long a game side may go without a person's page before its session ends. */
  aloneMs: number;
}

/** The runner's relay retries for longer than this (human-relay.ts), so the server decides. */
export const RELAY_TIMING: RelayTiming = {
  beatMs: 1_000,
  absentMs: 3_500,
  restoreMs: 60_000,
  aloneMs: 10 * 60_000,
};

export interface PlayRelayOptions {
  timing?: Partial<RelayTiming>;
  /**
   * Fails the session: seat `position`'s game side was absent for `restoreMs`, or had no
   * person's page for `aloneMs` (`reason` says which). The relay then closes the session's
   * sockets; when this throws, it tries again at the next beat.
   */
  onGameLost?: (
    sessionId: string,
    position: number,
    reason: string,
    errorType: "game_connection_lost" | "player_left",
  ) => Promise<void>;
  onError?: (error: unknown) => void;
}

type Side = SocketSide;

/** What the replicas say to each other about a seat (`s` session id, `p` slot position). */
type RelayMessage =
  /** A socket of `side` attached (`from` names the attachment); `here` answers a `hello`. */
  | { t: "hello"; s: string; p: number; side: Side; from: string }
  | { t: "here"; s: string; p: number; side: Side; from: string }
  /** A replica still holds this game side (`from`). */
  | { t: "beat"; s: string; p: number; side: Side; from: string }
  /** A socket of `side` closed; `normal` when it ended the seat (not a dropped connection). */
  | { t: "gone"; s: string; p: number; side: Side; from: string; normal?: boolean }
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
  /** Closed by the relay because the same side joined again: not the end of the seat. */
  replaced: boolean;
  /** A game side's: since when it has had no page to play it (null while it has one). */
  aloneSince: number | null;
  /** A game side's: its session is being ended for want of a person (onGameLost in flight). */
  ending: boolean;
}

/** What the replica holding the page knows of the game side, once it has one or expects one. */
interface Watch {
  seenAt: number;
  /** Since when it has been absent (the page was told); null while present. */
  lostSince: number | null;
  /** The seat is being failed (onGameLost in flight). */
  failing: boolean;
}

interface Seat {
  game: Held | null;
  browser: Held | null;
  watch: Watch | null;
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
    (value.t === "hello" || value.t === "here" || value.t === "gone" || value.t === "beat") &&
    "side" in value &&
    (value.side === "game" || value.side === "browser") &&
    "from" in value &&
    typeof value.from === "string"
  );
}

const otherSide = (side: Side): Side => (side === "game" ? "browser" : "game");

const notice = (state: PlaySocketNotice["state"]): string =>
  JSON.stringify({
    type: "gauntlet.connection",
    state,
    message:
      state === "restoring"
        ? "The game's connection is being restored…"
        : "The game's connection is restored.",
  } satisfies PlaySocketNotice);

export class PlayRelay {
  /** Keyed by session id, then slot position: the sockets this replica holds. */
  private readonly sessions = new Map<string, Map<number, Seat>>();
  private readonly bus: MessageBus;
  private readonly unsubscribe: () => void;
  private readonly timing: RelayTiming;
  private readonly options: PlayRelayOptions;
  private readonly beat: NodeJS.Timeout;

  constructor(bus: MessageBus, options: PlayRelayOptions = {}) {
    this.bus = bus;
    this.options = options;
    this.timing = { ...RELAY_TIMING, ...options.timing };
    this.unsubscribe = bus.subscribe((message) => {
      if (isRelayMessage(message)) this.receive(message);
    });
    this.beat = setInterval(() => this.tick(), this.timing.beatMs);
    this.beat.unref();
  }

  /** Says which game sides this replica holds, and notices the ones its pages lost. */
  private tick(): void {
    const now = Date.now();
    for (const [s, slots] of this.sessions)
      for (const [p, seat] of slots) {
        const game = seat.game;
        if (game) {
          this.send({ t: "beat", s, p, side: "game", from: game.id });
          if (
            !game.ending &&
            game.aloneSince !== null &&
            now - game.aloneSince > this.timing.aloneMs
          )
            this.abandon(s, p, game);
        }
        const { watch, browser } = seat;
        if (!watch || !browser || watch.failing) continue;
        if (watch.lostSince === null && now - watch.seenAt > this.timing.absentMs)
          this.lose(seat, browser, now);
        else if (watch.lostSince !== null && now - watch.lostSince > this.timing.restoreMs)
          this.fail(s, p, watch);
      }
  }

  /** The game side is absent: the page's frames wait, and the page is told. */
  private lose(seat: Seat, browser: Held, now: number): void {
    if (!seat.watch || seat.watch.lostSince !== null) return;
    seat.watch.lostSince = now;
    browser.peer = null;
    if (browser.socket.readyState === browser.socket.OPEN) browser.socket.send(notice("restoring"));
  }

  /** The game side is here (`from`): what the page said meanwhile goes to it, and the page is told. */
  private found(seat: Seat, s: string, p: number, from: string): void {
    const browser = seat.browser;
    if (!browser) return;
    const now = Date.now();
    const wasLost = seat.watch?.lostSince !== null && seat.watch?.lostSince !== undefined;
    seat.watch = { seenAt: now, lostSince: null, failing: seat.watch?.failing ?? false };
    if (browser.peer !== from) this.meet(browser, s, p, "game", from);
    if (wasLost && browser.socket.readyState === browser.socket.OPEN)
      browser.socket.send(notice("restored"));
  }

  private fail(s: string, p: number, watch: Watch): void {
    const seconds = Math.round(this.timing.restoreMs / 1000);
    const reason = `the game's connection to seat ${p} was lost and not restored within ${seconds} s`;
    const onGameLost = this.options.onGameLost;
    watch.failing = true;
    (onGameLost ? onGameLost(s, p, reason, "game_connection_lost") : Promise.resolve()).then(
      () => this.closeSession(s, reason),
      (error: unknown) => {
        watch.failing = false;
        this.options.onError?.(error);
      },
    );
  }

  private abandon(s: string, p: number, game: Held): void {
    const ms = this.timing.aloneMs;
    const span = ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
    const reason = `no one played seat ${p} for ${span}: the session ended`;
    const onGameLost = this.options.onGameLost;
    game.ending = true;
    (onGameLost ? onGameLost(s, p, reason, "player_left") : Promise.resolve()).then(
      () => this.closeSession(s, reason),
      (error: unknown) => {
        game.ending = false;
        this.options.onError?.(error);
      },
    );
  }

  private seat(id: string, position: number): Seat {
    let slots = this.sessions.get(id);
    if (!slots) {
      slots = new Map();
      this.sessions.set(id, slots);
    }
    let seat = slots.get(position);
    if (!seat) {
      seat = { game: null, browser: null, watch: null };
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
    held.aloneSince = null;
    for (const data of held.queue.splice(0)) this.send({ t: "frame", s, p, to, data });
  }

  /**
   * `expectGame`: the page's seat has had its game side (the session is playing), so a page that
   * finds none within `absentMs` is told that it is being restored.
   */
  attach(
    id: string,
    position: number,
    side: SocketSide,
    socket: WebSocket,
    expectGame = false,
  ): void {
    const seat = this.seat(id, position);
    const mine = side;
    const other = otherSide(mine);
    // A side that joins again replaces the old one (on another replica too, when it hears the
    // hello): a reloaded page, or the runner's relay reconnecting before the old socket's close
    // was noticed (only the runner holds the relay token).
    const previous = seat[mine];
    const held: Held = {
      socket,
      id: randomUUID(),
      peer: null,
      queue: [],
      replaced: false,
      aloneSince: side === "game" ? Date.now() : null,
      ending: false,
    };
    seat[mine] = held;
    if (previous) {
      previous.replaced = true;
      previous.socket.close(4000, side === "game" ? "connected again" : "joined from another page");
    }
    if (side === "browser" && expectGame && !seat.watch)
      seat.watch = { seenAt: Date.now(), lostSince: null, failing: false };
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      const frame = text(data);
      if (held.peer !== null) this.send({ t: "frame", s: id, p: position, to: other, data: frame });
      else if (held.queue.length < MAX_QUEUED) held.queue.push(frame);
    });
    socket.on("close", (code: number) => {
      if (seat[mine] === held) {
        seat[mine] = null;
        if (side === "browser") seat.watch = null;
      }
      this.dropIfEmpty(id, position);
      const normal = code === 1000 && !held.replaced;
      this.send({ t: "gone", s: id, p: position, side: mine, from: held.id, normal });
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
      // The same side joined again on another replica: this one's socket is replaced.
      if (same && same.id !== from) {
        same.replaced = true;
        same.socket.close(4000, side === "game" ? "connected again" : "joined from another page");
      }
      if (held) {
        if (side === "game") this.found(seat, s, p, from);
        else this.meet(held, s, p, side, from);
        this.send({ t: "here", s, p, side: mine, from: held.id });
      }
    } else if (message.t === "here" || message.t === "beat") {
      if (side === "game") this.found(seat, s, p, from);
      else if (held && held.peer !== from) this.meet(held, s, p, side, from);
    } else {
      this.gone(seat, message);
    }
  }

  private gone(seat: Seat, message: Extract<RelayMessage, { t: "gone" }>): void {
    const held = seat[otherSide(message.side)];
    if (message.side === "browser") {
      if (held && held.peer === message.from) {
        held.peer = null;
        held.aloneSince = Date.now();
      }
    } else if (held && (held.peer === message.from || held.peer === null)) {
      // The game closed the seat: the episode is over for the person too. A dropped connection
      // is not an end: the runner's relay reconnects, and the page is told meanwhile.
      if (message.normal === true) held.socket.close(1000, "the game ended");
      else this.lose(seat, held, Date.now());
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
    clearInterval(this.beat);
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
        .then(({ admitted, position, playing }) => {
          if (admitted === "unknown") return socket.close(4401, "unknown session or wrong token");
          if (admitted === "ended") return socket.close(4410, "the session has ended");
          deps.relay.attach(id, position, side, socket, playing);
          socket.resume();
        })
        .catch((error: unknown) => {
          request.log.error({ err: error }, "play relay: admitting a socket failed");
          socket.close(1011, "the server failed");
        });
    };
  });
}
