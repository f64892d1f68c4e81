// The replica's event hub: takes events from the bus, puts them in seq order without gaps
// (reading what the bus lost from the event log, and polling it now and then), and hands each
// one, once, to every live subscriber of this replica.
import type { Kysely } from "kysely";

import type { CompetitionEventsTable, Database } from "../store/schema.ts";
import type { EventBus } from "./bus.ts";
import { makeDeliveries, type Delivery, type EventRenderer } from "./delivery.ts";
import { eventsAfter, lastEventSeq } from "./event-log.ts";

export interface LiveSubscriber {
  /** The events of one write (one transaction's, in seq order), handed on together so that a
   * subscriber can send them in one write. */
  deliver(deliveries: readonly Delivery[]): void;
  /** Settles once what it was handed has gone out (a subscriber that writes later). */
  written?(): Promise<void>;
}

export interface EventHubOptions {
  /** How an event reads on the wire (the feature that owns the events gives it). */
  render: EventRenderer;
  /** How often the log is read for events the bus did not bring. Default 1000 ms. */
  pollMs?: number;
  /** How long the first of a burst of rows waits for the rest, so that they go out in one write
   * a subscriber. Default 0 (at once). */
  lingerMs?: number;
  onError?: (error: unknown) => void;
}

const BATCH = 500;

export class EventHub {
  readonly #db: Kysely<Database>;
  readonly #subscribers = new Set<LiveSubscriber>();
  readonly #rowListeners = new Set<(rows: readonly CompetitionEventsTable[]) => void>();
  readonly #onError: (error: unknown) => void;
  readonly #render: EventRenderer;
  readonly #unsubscribe: () => void;
  readonly #timer: ReturnType<typeof setInterval>;
  #lastSeq: number;
  #chain: Promise<void> = Promise.resolve();
  /** Rows the bus brought that no step has taken yet (one step takes them all). */
  #incoming: CompetitionEventsTable[] = [];
  readonly #lingerMs: number;
  #stopped = false;

  private constructor(
    db: Kysely<Database>,
    bus: EventBus,
    lastSeq: number,
    options: EventHubOptions,
  ) {
    this.#db = db;
    this.#lastSeq = lastSeq;
    this.#onError = options.onError ?? (() => undefined);
    this.#render = options.render;
    this.#lingerMs = options.lingerMs ?? 0;
    this.#unsubscribe = bus.subscribe((rows) => this.#arrived(rows));
    this.#timer = setInterval(
      () => void this.#enqueue(() => this.#catchUp()),
      options.pollMs ?? 1000,
    );
    this.#timer.unref();
  }

  static async start(
    db: Kysely<Database>,
    bus: EventBus,
    options: EventHubOptions,
  ): Promise<EventHub> {
    return new EventHub(db, bus, await lastEventSeq(db), options);
  }

  /** The newest seq handed to subscribers. */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  add(subscriber: LiveSubscriber): void {
    this.#subscribers.add(subscriber);
  }

  remove(subscriber: LiveSubscriber): void {
    this.#subscribers.delete(subscriber);
  }

  /** Hears every event in seq order as its stored row (a cache that forgets on events); rows
   * are not rendered for it. */
  onRows(listener: (rows: readonly CompetitionEventsTable[]) => void): void {
    this.#rowListeners.add(listener);
  }

  /** Logged events as subscribers receive them (a resuming subscriber's replay). */
  deliveries(rows: readonly CompetitionEventsTable[]): Promise<Delivery[]> {
    return makeDeliveries(this.#db, rows, this.#render);
  }

  /** Reads the log now (tests; and a replica that knows it just wrote); settles once what it
   * read has gone out to the subscribers. */
  async catchUp(): Promise<void> {
    await this.#enqueue(() => this.#catchUp());
    for (const subscriber of this.#subscribers) if (subscriber.written) await subscriber.written();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#unsubscribe();
    this.#subscribers.clear();
    this.#rowListeners.clear();
    await this.#chain;
  }

  // One step at a time, so deliveries keep seq order whatever arrives meanwhile.
  #enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.#chain
      .then(() => (this.#stopped ? undefined : step()))
      .catch((error: unknown) => this.#onError(error));
    this.#chain = next;
    return next;
  }

  // Rows that arrive while a delivery runs (or the linger lasts) wait for one step that takes
  // them all: a subscriber then gets them in one write, not one write per transaction that made
  // them. On a replica with thousands of watchers that write is most of an event's cost.
  #arrived(rows: readonly CompetitionEventsTable[]): void {
    const waiting = this.#incoming.length > 0;
    this.#incoming.push(...rows);
    if (waiting) return;
    // #enqueue never rejects (each step's error goes to onError), so its promise is left on purpose.
    const take = () => void this.#enqueue(() => this.#ingest(this.#incoming.splice(0)));
    if (this.#lingerMs > 0) setTimeout(take, this.#lingerMs);
    else take();
  }

  async #ingest(rows: readonly CompetitionEventsTable[]): Promise<void> {
    const fresh = [...rows].filter((r) => r.seq > this.#lastSeq).sort((a, b) => a.seq - b.seq);
    // Consecutive rows go out as one batch; a gap is filled from the log first.
    let run: CompetitionEventsTable[] = [];
    for (const row of fresh) {
      const next = (run[run.length - 1]?.seq ?? this.#lastSeq) + 1;
      if (row.seq < next) continue;
      if (row.seq > next) {
        await this.#deliver(run);
        run = [];
        // Events between the last delivered and this one were committed before it: read them.
        while (row.seq > this.#lastSeq + 1) {
          const missing = await eventsAfter(this.#db, this.#lastSeq, BATCH, row.seq);
          if (missing.length === 0) break;
          await this.#deliver(missing);
        }
        if (row.seq <= this.#lastSeq) continue;
      }
      run.push(row);
    }
    await this.#deliver(run);
  }

  async #catchUp(): Promise<void> {
    for (;;) {
      const rows = await eventsAfter(this.#db, this.#lastSeq, BATCH);
      if (rows.length === 0) return;
      await this.#deliver(rows);
      if (rows.length < BATCH) return;
    }
  }

  async #deliver(rows: readonly CompetitionEventsTable[]): Promise<void> {
    const fresh = rows.filter((r) => r.seq > this.#lastSeq);
    const last = fresh[fresh.length - 1];
    if (!last) return;
    for (const listener of this.#rowListeners) {
      try {
        listener(fresh);
      } catch (error) {
        this.#onError(error);
      }
    }
    // Nobody subscribed: nothing to render, only the position moves on.
    if (this.#subscribers.size === 0) {
      this.#lastSeq = last.seq;
      return;
    }
    const deliveries = (await this.deliveries(fresh)).filter((d) => d.row.seq > this.#lastSeq);
    const newest = deliveries[deliveries.length - 1];
    if (!newest) return;
    this.#lastSeq = newest.row.seq;
    for (const subscriber of this.#subscribers) {
      try {
        subscriber.deliver(deliveries);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
