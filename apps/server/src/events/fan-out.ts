// This replica's subscribers by topic: the hub hands each event here once, and it goes only to
// the subscribers of the topics the event is on (not past every open socket). A subscriber of
// two of an event's topics is handed it twice and sends it once (it keeps the last seq it sent).
//
// The writes go out a chunk of subscribers per turn of the event loop: ten thousand socket
// writes take a few hundred ms of a busy 2-core machine, and meanwhile the replica serves its
// requests (the completion that makes the next events among them). Each subscriber has one
// outbox: rows handed in while a fan-out runs join the outboxes of the subscribers not written
// yet, so those get everything in one write (bench watchers, fourth pass).
import { channel } from "node:diagnostics_channel";

import type { Delivery } from "./delivery.ts";
import type { LiveSubscriber } from "./hub.ts";

/** Subscribers written per turn of the event loop, by default. */
export const FAN_OUT_CHUNK = 200;

/** Published (only when someone listens: benchmarks) with the seqs handed to every subscriber
 * once the last of their writes is done, and how many subscribers were handed them (writes). */
export const writtenChannel = channel("gauntlet:events:written");

export class TopicFanOut implements LiveSubscriber {
  readonly #routes: (delivery: Delivery) => readonly string[];
  readonly #byTopic = new Map<string, Set<LiveSubscriber>>();
  readonly #topicsOf = new Map<LiveSubscriber, Set<string>>();
  /** What each subscriber is owed, in seq order; a Map keeps the order they are written in. */
  readonly #outbox = new Map<LiveSubscriber, Delivery[]>();
  readonly #chunk: number;
  readonly #onError: (error: unknown) => void;
  #writing = false;
  /** Waiting for the outboxes to be all written. */
  #waiting: (() => void)[] = [];
  /** Seqs handed in since the outboxes were last all written (only while traced). */
  #owed: number[] = [];
  /** Subscribers handed their share since then (one socket write each). */
  #handed = 0;

  /** `routes`: the names of the topics an event is on (TopicRules.routes). `chunk`: subscribers
   * written per turn of the event loop (0: all at once). */
  constructor(
    routes: (delivery: Delivery) => readonly string[],
    options: { chunk?: number; onError?: (error: unknown) => void } = {},
  ) {
    this.#routes = routes;
    this.#chunk = options.chunk ?? FAN_OUT_CHUNK;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Subscribers of this replica (tests, and the bench's figures). */
  get size(): number {
    return this.#topicsOf.size;
  }

  add(subscriber: LiveSubscriber, topic: string): void {
    let members = this.#byTopic.get(topic);
    if (!members) {
      members = new Set();
      this.#byTopic.set(topic, members);
    }
    members.add(subscriber);
    let topics = this.#topicsOf.get(subscriber);
    if (!topics) {
      topics = new Set();
      this.#topicsOf.set(subscriber, topics);
    }
    topics.add(topic);
  }

  /** Drops the subscriber from every topic: nothing more is handed to it, nor what it was owed. */
  remove(subscriber: LiveSubscriber): void {
    for (const topic of this.#topicsOf.get(subscriber) ?? []) {
      const members = this.#byTopic.get(topic);
      members?.delete(subscriber);
      if (members?.size === 0) this.#byTopic.delete(topic);
    }
    this.#topicsOf.delete(subscriber);
    this.#outbox.delete(subscriber);
  }

  /** Settles once every subscriber was handed what it is owed now. */
  written(): Promise<void> {
    if (!this.#writing) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  deliver(deliveries: readonly Delivery[]): void {
    // Each subscriber gets what it is owed in one call (one write on its socket).
    for (const delivery of deliveries)
      for (const topic of this.#routes(delivery)) {
        const members = this.#byTopic.get(topic);
        if (!members) continue;
        for (const subscriber of members) {
          const share = this.#outbox.get(subscriber);
          if (!share) this.#outbox.set(subscriber, [delivery]);
          else if (share[share.length - 1] !== delivery) share.push(delivery);
        }
      }
    if (writtenChannel.hasSubscribers) for (const d of deliveries) this.#owed.push(d.row.seq);
    if (!this.#writing) this.#write();
  }

  // A chunk now; the rest on later turns, after the I/O that waited (setImmediate).
  #write(): void {
    this.#writing = true;
    let written = 0;
    for (const [subscriber, share] of this.#outbox) {
      if (this.#chunk > 0 && written >= this.#chunk) {
        setImmediate(() => this.#write());
        return;
      }
      this.#outbox.delete(subscriber);
      written += 1;
      this.#handed += 1;
      try {
        subscriber.deliver(share);
      } catch (error) {
        this.#onError(error);
      }
    }
    this.#writing = false;
    if (this.#owed.length > 0) {
      const seqs = this.#owed;
      this.#owed = [];
      writtenChannel.publish({ seqs, writes: this.#handed });
    }
    this.#handed = 0;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
