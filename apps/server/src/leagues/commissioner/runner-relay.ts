// Where a commissioner session's two ends meet: the driver's channel (on the replica running the
// league's session) and the runner's relay socket (on whichever replica the runner reached). They
// meet over the message bus, as a human seat's two sockets do (play/relay.ts): the socket's
// replica says when the runner attached, hands on each whole message the commissioner sent, and
// says how the socket ended; the driver's replica hands on what it sends, and says when it closes.
//
// The runner sends a commissioner message as text frames of at most COMMISSIONER_RELAY_FRAME_BYTES
// ("+" before each piece but the last, "." before the last), so no socket may send this server a
// large frame; the pieces are joined here up to the protocol's 16 MiB, past which the socket is
// closed as oversized.
//
// A replica that dies says nothing: so the replica holding a runner's socket says every second
// that it still does, and the driver's side counts the session disconnected after a few silent
// seconds (the runner does not reconnect: its session is over, and the round fails).
import type { RawData, WebSocket } from "ws";

import { COMMISSIONER_MESSAGE_MAX_BYTES } from "@gauntlet/core";

import type { MessageBus } from "../../events/message-bus.ts";
import type { CommissionerFailureKind } from "./channel.ts";

/** The runner's closes that say how its commissioner ended (apps/runner's commissioner bridge). */
export const RELAY_CLOSE = {
  crashed: 4500,
  oversized: 4413,
} as const;

/** What the replicas say about a session (`j` the job's id). */
type Message =
  | { t: "cj-attach"; j: string }
  /** The replica holding the runner's socket still does. */
  | { t: "cj-beat"; j: string }
  | { t: "cj-up"; j: string; m: string }
  | { t: "cj-down"; j: string; m: string }
  | { t: "cj-end"; j: string; kind: CommissionerFailureKind; why: string }
  | { t: "cj-close"; j: string; reason: string };

/** The driver's side of one session, told what arrives for it. */
export interface SessionEnd {
  attached(): void;
  message(text: string): void;
  ended(kind: CommissionerFailureKind, why: string): void;
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== "object" || value === null) return false;
  const { t, j } = value as { t?: unknown; j?: unknown };
  return typeof t === "string" && t.startsWith("cj-") && typeof j === "string";
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data as ArrayBuffer).toString("utf8");
}

export interface RelayBeat {
  /** How often a replica says that it still holds a runner's socket. */
  beatMs: number;
  /** The silence after which the driver's side counts the socket gone. */
  absentMs: number;
}

interface Listening {
  end: SessionEnd;
  /** When the socket's replica was last heard from (Date.now()); null before the attach. */
  heardAt: number | null;
}

/** What the platform may have sent a runner's socket that it has not read, at most: the driver's
 * replies can echo the commissioner's requests, and a runner that stops reading would otherwise
 * have them buffered here without end. As much as the session's inbox holds the other way. */
export const RELAY_UNREAD_MAX_BYTES = 4 * COMMISSIONER_MESSAGE_MAX_BYTES;

/** What a piece costs at least toward a message's 16 MiB (the runner's pieces are 32 KiB but the last). */
const PIECE_FLOOR_BYTES = 1024;

export class CommissionerRelay {
  readonly #bus: MessageBus;
  readonly #timing: RelayBeat;
  /** Sessions whose driver runs here. */
  readonly #sessions = new Map<string, Listening>();
  /** Runner sockets attached here, with how their session ends. */
  readonly #sockets = new Map<
    string,
    { socket: WebSocket; end: (kind: CommissionerFailureKind, why: string) => void }
  >();
  readonly #unsubscribe: () => void;
  readonly #beat: ReturnType<typeof setInterval>;

  constructor(bus: MessageBus, timing: RelayBeat = { beatMs: 1_000, absentMs: 5_000 }) {
    this.#bus = bus;
    this.#timing = timing;
    this.#unsubscribe = bus.subscribe((raw) => {
      if (isMessage(raw)) this.#hear(raw);
    });
    this.#beat = setInterval(() => this.#pulse(), timing.beatMs);
    this.#beat.unref();
  }

  #pulse(): void {
    for (const j of this.#sockets.keys()) this.#bus.publish({ t: "cj-beat", j } satisfies Message);
    const now = Date.now();
    for (const [j, session] of this.#sessions)
      if (session.heardAt !== null && now - session.heardAt > this.#timing.absentMs) {
        this.#sessions.delete(j);
        session.end.ended(
          "disconnected",
          `the replica holding the runner's relay was silent for ${this.#timing.absentMs} ms`,
        );
      }
  }

  #hear(message: Message): void {
    const session = this.#sessions.get(message.j);
    if (session && message.t !== "cj-down" && message.t !== "cj-close")
      session.heardAt = Date.now();
    switch (message.t) {
      case "cj-attach":
        return session?.end.attached();
      case "cj-beat":
        return;
      case "cj-up":
        return session?.end.message(message.m);
      case "cj-end":
        return session?.end.ended(message.kind, message.why);
      case "cj-down": {
        const held = this.#sockets.get(message.j);
        if (!held || held.socket.readyState !== held.socket.OPEN) return;
        if (held.socket.bufferedAmount + message.m.length > RELAY_UNREAD_MAX_BYTES) {
          held.end(
            "timeout",
            `the runner's relay left ${held.socket.bufferedAmount} bytes the platform sent unread`,
          );
          held.socket.terminate();
          return;
        }
        held.socket.send(message.m);
        return;
      }
      case "cj-close":
        this.#sockets.get(message.j)?.socket.close(1000, message.reason.slice(0, 100));
        return;
    }
  }

  /** The driver's side: hears the session `jobId` until the returned function is called. */
  listen(jobId: string, end: SessionEnd): () => void {
    this.#sessions.set(jobId, { end, heardAt: null });
    return () => this.#sessions.delete(jobId);
  }

  send(jobId: string, text: string): void {
    this.#bus.publish({ t: "cj-down", j: jobId, m: text } satisfies Message);
  }

  close(jobId: string, reason: string): void {
    this.#bus.publish({ t: "cj-close", j: jobId, reason } satisfies Message);
  }

  /** The runner's socket of job `jobId`, admitted: its frames go to the driver, wherever it is. */
  attach(jobId: string, socket: WebSocket): void {
    const publish = (message: Message) => this.#bus.publish(message);
    // A second socket for the same job replaces none: the first is the session's.
    if (this.#sockets.has(jobId)) {
      socket.close(4410, "the session already has its commissioner");
      return;
    }
    let pieces: string[] = [];
    let size = 0;
    let ended = false;
    const end = (kind: CommissionerFailureKind, why: string) => {
      if (ended) return;
      ended = true;
      publish({ t: "cj-end", j: jobId, kind, why });
    };
    this.#sockets.set(jobId, { socket, end });
    socket.on("message", (data, isBinary) => {
      if (ended) return;
      const frame = text(data);
      const mark = frame[0];
      if (isBinary || (mark !== "+" && mark !== ".")) {
        end("malformed", "the commissioner's relay sent a frame outside the relay's framing");
        socket.close(1003, "frames are '+' or '.' pieces of text");
        return;
      }
      const piece = frame.slice(1);
      // A piece counts at least PIECE_FLOOR_BYTES: a relay sending empty pieces would otherwise
      // grow the message's list of pieces without ever reaching the limit.
      size += Math.max(Buffer.byteLength(piece), PIECE_FLOOR_BYTES);
      if (size > COMMISSIONER_MESSAGE_MAX_BYTES) {
        end("oversized", `a message past ${COMMISSIONER_MESSAGE_MAX_BYTES} bytes`);
        socket.close(RELAY_CLOSE.oversized, "a message past 16 MiB");
        return;
      }
      pieces.push(piece);
      if (mark === ".") {
        publish({ t: "cj-up", j: jobId, m: pieces.join("") });
        pieces = [];
        size = 0;
      }
    });
    socket.on("close", (code, reason) => {
      this.#sockets.delete(jobId);
      const why = reason.toString() || `the runner's relay closed (${code})`;
      if (code === RELAY_CLOSE.crashed) end("crashed", why);
      else if (code === RELAY_CLOSE.oversized || code === 1009) end("oversized", why);
      else end("disconnected", why);
    });
    publish({ t: "cj-attach", j: jobId });
  }

  /** Tells the driver's side that the runner reported the job's end before its socket did. */
  reported(jobId: string, kind: CommissionerFailureKind, why: string): void {
    this.#bus.publish({ t: "cj-end", j: jobId, kind, why } satisfies Message);
  }

  /** This replica stops: its runner sockets are closed (their sessions fail as disconnected). */
  shutdown(): void {
    clearInterval(this.#beat);
    this.#unsubscribe();
    for (const { socket } of this.#sockets.values()) socket.close(1001, "server shutting down");
  }
}
