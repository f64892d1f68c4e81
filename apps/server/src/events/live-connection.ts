// One WebSocket subscriber: its identity (fixed at the upgrade), its topics, and the seq of the
// last event it was sent. A `subscribe` with `since_seq` replays the log first; events the hub
// delivers meanwhile wait in a buffer, so the client sees one ordered stream without repeats.
// A client that does not read what it is sent is dropped (CLOSE_TOO_SLOW) once its socket holds
// more than a bound, and resumes with `since_seq`: nothing is buffered for it without bound.
import { setImmediate as nextTurn } from "node:timers/promises";

import type { Kysely } from "kysely";
import type { WebSocket } from "ws";

import { SubscribeMessage, type LiveControl } from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import type { Database } from "../store/schema.ts";
import { joinedFrames, type Delivery } from "./delivery.ts";
import type { FanOutSubscriber, TopicFanOut } from "./fan-out.ts";
import type { EventHub } from "./hub.ts";
import type { ReplayTurns } from "./replay-turns.ts";
import type { LiveTopic, TopicRules } from "./topic-rules.ts";

/** Replays stop after this many events; older ones are for the feed (`/v2/competition-events`).
 * It is also all one connection replays over its life: subscribing again does not start afresh
 * (a new connection does, and is charged to the caller's budget). */
export const MAX_REPLAY = 10_000;
/** Rows a replay reads at a time; it gives the event loop back between pages (a page of 500
 * took 28–46 ms to read and render: too long a unit for a turn of the event loop). */
const REPLAY_PAGE = 50;
/** Live deliveries held back while a replay runs; a connection whose replay falls this far behind
 * the live stream is dropped (4008) rather than hold them without bound. */
export const MAX_PENDING = 5_000;
/** A client this far behind is dropped (it reconnects and resumes from its last seq). Ten
 * thousand watchers at this bound could hold 10 GiB only if all stalled at once; one holds 1 MiB. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Close code for a client too slow to keep up; not terminal for clients (they resume). */
export const CLOSE_TOO_SLOW = 4008;
/** A dropped client that does not finish the closing handshake is cut off after this long (its
 * close frame waits behind what it did not read). */
const DROP_GRACE_MS = 10_000;
/** Close code for a connection whose token was revoked or expired: terminal (clients do not retry 44xx). */
export const CLOSE_TOKEN_REVOKED = 4401;

/** What a connection reads from the hub: where the log stands, and deliveries for replayed rows. */
export type ConnectionHub = Pick<EventHub, "lastSeq" | "deliveries">;

/** The TCP socket under the WebSocket. */
interface Stream {
  write(bytes: Buffer): boolean;
  cork(): void;
  uncork(): void;
  once(event: "drain", listener: () => void): unknown;
  off(event: "drain", listener: () => void): unknown;
}

export class LiveConnection<T extends LiveTopic = LiveTopic> implements FanOutSubscriber {
  readonly #socket: WebSocket;
  #identity: Identity;
  /** The caller's identity as it stands now (null: its token was revoked or expired). */
  readonly #authorise: () => Promise<Identity | null>;
  readonly #db: Kysely<Database>;
  readonly #hub: ConnectionHub;
  readonly #fanOut: TopicFanOut;
  readonly #rules: TopicRules<T>;
  readonly #maxBufferedBytes: number;
  readonly #stream: Stream;
  readonly #turns: ReplayTurns | undefined;
  readonly #chargeReplay: ((events: number) => Promise<string | null>) | undefined;
  #dropped = false;
  readonly #topics = new Map<string, T>();
  /** The topics as one array, made anew when they change (the rules may cache by it). */
  #topicList: readonly T[] = [];
  #lastSent = 0;
  /** Subscribe's `compact`: events' `data` without the embedded league and division. */
  #compact = false;
  /** The fan-out's own mark: the last seq it handed this connection. */
  handedThrough = 0;
  /** Whether a topic of it joined the fan-out yet. */
  #joined = false;
  /** Events replayed on this connection so far (bounded by MAX_REPLAY). */
  #replayed = 0;
  /** Non-null while a replay runs: live deliveries wait here. */
  #pending: Delivery[] | null = null;
  #work: Promise<void> = Promise.resolve();

  constructor(options: {
    socket: WebSocket;
    identity: Identity;
    db: Kysely<Database>;
    hub: ConnectionHub;
    fanOut: TopicFanOut;
    rules: TopicRules<T>;
    authorise?: () => Promise<Identity | null>;
    maxBufferedBytes?: number;
    /** The TCP socket under the WebSocket: a batch of events is written to it in one go. */
    stream: Stream;
    /** The replica's replays' turns (pages read a few at a time); none: no waiting. */
    turns?: ReplayTurns;
    /** Draws a replay page of `events` on the caller's shared budget, as the feed read it stands
     * in for would: null when it fits, else why not (the replay stops there). None: free. */
    chargeReplay?: (events: number) => Promise<string | null>;
  }) {
    this.#chargeReplay = options.chargeReplay;
    this.#turns = options.turns;
    this.#stream = options.stream;
    const { identity } = options;
    this.#authorise = options.authorise ?? (async () => identity);
    this.#rules = options.rules;
    this.#socket = options.socket;
    this.#identity = identity;
    this.#db = options.db;
    this.#hub = options.hub;
    this.#fanOut = options.fanOut;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  }

  /** Handles one client message; messages are handled one after another. */
  receive(raw: string): Promise<void> {
    this.#work = this.#work.then(() => this.#handle(raw));
    return this.#work;
  }

  /**
   * Looks the token up again between subscribes (the heartbeat's turn): a token revoked where
   * this replica did not hear of it ends the connection, so its private deliveries stop too.
   */
  recheck(): Promise<void> {
    this.#work = this.#work.then(async () => {
      if (!this.#open()) return;
      const current = await this.#authorise();
      if (current === null) this.#revoked();
      else this.#identity = current;
    });
    return this.#work;
  }

  #revoked(): void {
    this.#fanOut.remove(this);
    this.#socket.close(CLOSE_TOKEN_REVOKED, "the token was revoked or has expired");
  }

  /** The identity the connection acts as (for closing it when its token is revoked). */
  get identity(): Identity {
    return this.#identity;
  }

  deliver(deliveries: readonly Delivery[]): void {
    if (this.#pending) {
      if (this.#pending.length + deliveries.length > MAX_PENDING) {
        this.#pending = [];
        this.#drop();
        return;
      }
      this.#pending.push(...deliveries);
      return;
    }
    this.#write(deliveries);
  }

  #write(deliveries: readonly Delivery[]): void {
    const [only] = deliveries;
    if (deliveries.length === 1 && only) {
      this.#send(only);
      return;
    }
    // Most often every event of the batch is on the one topic and may be seen: the batch's frames
    // of that topic, joined once for every subscriber handed the same batch, in one write.
    const topic = this.#sameTopic(deliveries);
    if (topic !== null) {
      if (this.#socket.bufferedAmount > this.#maxBufferedBytes) {
        this.#drop();
        return;
      }
      const last = deliveries[deliveries.length - 1];
      if (last) this.#lastSent = last.row.seq;
      if (this.#socket.readyState === this.#socket.OPEN)
        this.#stream.write(joinedFrames(deliveries, topic, this.#compact));
      return;
    }
    // One write for the batch: the socket gathers the frames until uncorked.
    this.#stream.cork();
    for (const delivery of deliveries) this.#send(delivery);
    this.#stream.uncork();
  }

  /** The one topic every delivery is sent on, when each is new to this connection and may be
   * seen by it; null otherwise (each is then judged on its own). */
  #sameTopic(deliveries: readonly Delivery[]): string | null {
    if (this.#dropped) return null;
    let topic: string | null = null;
    let after = this.#lastSent;
    for (const { row, scope } of deliveries) {
      if (row.seq <= after) return null;
      after = row.seq;
      const its = this.#rules.topicOf(this.#identity, this.#topicList, row);
      if (its === null || (topic !== null && its !== topic)) return null;
      if (!this.#rules.mayReceive(this.#identity, row, scope)) return null;
      topic = its;
    }
    return topic;
  }

  /** `bounded`: a live delivery drops a client this far behind; a replay waits for it instead. */
  #send(delivery: Delivery, bounded = true): void {
    const { row, scope } = delivery;
    if (this.#dropped || row.seq <= this.#lastSent) return;
    const topic = this.#rules.topicOf(this.#identity, this.#topicList, row);
    if (topic === null || !this.#rules.mayReceive(this.#identity, row, scope)) return;
    if (bounded && this.#socket.bufferedAmount > this.#maxBufferedBytes) {
      this.#drop();
      return;
    }
    this.#lastSent = row.seq;
    // The frame is the same bytes for every subscriber of the topic: written to the TCP socket
    // as is (ws writes each of its own frames whole and at once — no compression here — so
    // frames never interleave); once the socket is closing nothing more may follow its close.
    if (this.#socket.readyState === this.#socket.OPEN)
      this.#stream.write(delivery.frame(topic, this.#compact));
  }

  /** Settles true once the socket holds less than the bound; false if it did not within the grace. */
  #drained(): Promise<boolean> {
    const stream = this.#stream;
    if (this.#dropped) return Promise.resolve(false);
    if (this.#socket.bufferedAmount <= this.#maxBufferedBytes) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        stream.off("drain", done);
        resolve(false);
      }, DROP_GRACE_MS);
      stream.once("drain", done);
    });
  }

  /** Too slow: nothing more is sent; the client resumes from the last seq it read. */
  #drop(): void {
    if (this.#dropped) return;
    this.#dropped = true;
    this.#fanOut.remove(this);
    this.#socket.close(CLOSE_TOO_SLOW, "too far behind; resume with since_seq");
    const socket = this.#socket;
    setTimeout(() => socket.terminate(), DROP_GRACE_MS).unref();
  }

  /** Dropped or closed: a replay that waited stops here. */
  #gone(): boolean {
    return this.#dropped || !this.#open();
  }

  #open(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  #control(message: LiveControl): void {
    this.#socket.send(JSON.stringify(message));
  }

  async #handle(raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      this.#control({ type: "error", message: "a message must be JSON" });
      return;
    }
    const parsed = SubscribeMessage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.#control({
        type: "error",
        message: `expected {type: "subscribe", topics, since_seq?, compact?}: ${issue ? `${issue.path.join(".") || "message"}: ${issue.message}` : "invalid"}`,
      });
      return;
    }
    // Every subscribe is authorised again: a token revoked (or expired) since the upgrade ends
    // the connection, and a changed identity (an admin no more) sees what it may see now.
    const current = await this.#authorise();
    if (current === null) {
      this.#revoked();
      return;
    }
    this.#identity = current;
    if (parsed.data.compact !== undefined) this.#compact = parsed.data.compact;
    // A resuming subscribe holds live deliveries from before its first topic joins the fan-out:
    // one delivered while a later topic is checked would move the replay's start past events.
    const replaying = parsed.data.since_seq !== undefined;
    if (replaying) this.#pending ??= [];
    const accepted: string[] = [];
    for (const name of parsed.data.topics) {
      const topic = this.#rules.parse(name);
      const refusal = topic
        ? await this.#rules.refuse(this.#db, this.#identity, topic)
        : `unknown topic ${name} (${this.#rules.patterns.join(", ")})`;
      if (topic && refusal === null) {
        this.#topics.set(topic.name, topic);
        this.#topicList = [...this.#topics.values()];
        accepted.push(topic.name);
        // Not once the socket has closed: its close removed it from the fan-out already, and
        // a topic added after that would hold the dead connection for good.
        if (!this.#dropped && this.#open()) {
          // Its first topic: what the hub took before now (a pass may be writing it still) is
          // from before this subscriber, or its replay's; the fan-out hands it only what follows,
          // so nothing older than its `subscribed` seq arrives after it.
          if (!this.#joined) this.handedThrough = Math.max(this.handedThrough, this.#hub.lastSeq);
          this.#joined = true;
          this.#fanOut.add(this, topic.name);
        }
      } else {
        this.#control({ type: "error", message: refusal ?? `unknown topic ${name}` });
      }
    }
    if (parsed.data.since_seq !== undefined && this.#topics.size > 0)
      await this.#replay(parsed.data.since_seq);
    else if (replaying) this.#flushPending();
    // Closed while this subscribe awaited: nothing of it may stay in the fan-out.
    if (!this.#open()) {
      this.#fanOut.remove(this);
      return;
    }
    this.#control({
      type: "subscribed",
      topics: [...this.#topics.keys()],
      seq: Math.max(this.#lastSent, this.#hub.lastSeq),
    });
  }

  /** Writes what live delivery held back during a replay, and delivers directly again. */
  #flushPending(): void {
    const waiting = this.#pending;
    this.#pending = null;
    if (waiting) this.#write(waiting);
  }

  /** Runs a replay's unit of work in the replica's turns (none: at once). */
  #inTurn<R>(work: () => Promise<R>): Promise<R> {
    return this.#turns ? this.#turns.run(work) : work();
  }

  /** Writes replayed deliveries from `from` while the socket takes them, at most a slice;
   * returns where the next slice starts. */
  #writeSlice(deliveries: readonly Delivery[], from: number): number {
    const end = Math.min(deliveries.length, from + REPLAY_PAGE);
    let at = from;
    while (at < end && !this.#gone() && this.#socket.bufferedAmount <= this.#maxBufferedBytes) {
      const delivery = deliveries[at];
      if (delivery) this.#send(delivery, false);
      at += 1;
    }
    return at;
  }

  async #replay(since: number): Promise<void> {
    this.#pending ??= [];
    try {
      let after = Math.max(since, this.#lastSent);
      for (;;) {
        if (this.#replayed >= MAX_REPLAY) {
          this.#control({
            type: "error",
            message: `replay stopped after ${MAX_REPLAY} events on this connection; read older ones from /v2/competition-events`,
          });
          break;
        }
        // Another turn of the event loop before each page: many replaying sockets take turns with
        // every other request (and with each other) instead of running page after page.
        await nextTurn();
        if (this.#gone()) return;
        const size = Math.min(REPLAY_PAGE, MAX_REPLAY - this.#replayed);
        const refused = this.#chargeReplay ? await this.#chargeReplay(size) : null;
        if (this.#gone()) return;
        if (refused !== null) {
          this.#control({
            type: "error",
            message: `replay stopped: ${refused} Resume with since_seq ${this.#lastSent || after}, or read older events from /v2/competition-events`,
          });
          break;
        }
        const read = async () => {
          // A socket closed while this page waited for its turn costs nothing more.
          if (this.#gone()) return { rows: [], deliveries: [] };
          const rows = await this.#rules.backlog(
            this.#db,
            this.#identity,
            this.#topicList,
            after,
            size,
          );
          return { rows, deliveries: await this.#hub.deliveries(rows) };
        };
        const { rows, deliveries } = await this.#inTurn(read);
        if (this.#gone()) return;
        // A replay is written as fast as the client reads it (a fresh socket's kernel buffer is
        // small, so a page of large events would pass the bound before the client could read),
        // a slice at a time in the replica's turns: twenty readers writing their pages at once
        // held each turn of the event loop for up to a second, and /healthz waited seconds to
        // be accepted. Waiting for a slow client happens outside any turn.
        let next = 0;
        while (next < deliveries.length) {
          if (!(await this.#drained())) {
            this.#drop();
            return;
          }
          const from = next;
          next = await this.#inTurn(async () => this.#writeSlice(deliveries, from));
          if (this.#gone()) return;
        }
        this.#replayed += rows.length;
        const last = rows[rows.length - 1];
        if (!last || rows.length < size) break;
        after = last.seq;
      }
    } finally {
      this.#flushPending();
    }
  }
}
