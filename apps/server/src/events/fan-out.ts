// This replica's subscribers by topic: the hub hands each event here once, and it goes only to
// the subscribers of the topics the event is on (not past every open socket).
//
// A batch of events becomes a pass: its deliveries grouped by topic, one array a topic that
// every subscriber of that topic is handed as is (ten thousand watchers of a division cost the
// walk of its member set, not ten thousand lists). A subscriber of several topics is handed the
// batch's events of all of them at once, merged in seq order; each subscriber keeps the last seq
// it was handed (`handedThrough`), so whatever it meets again is passed over.
//
// A pass writes a chunk of subscribers per turn of the event loop: ten thousand socket writes
// take a few hundred ms of a busy 2-core machine, and meanwhile the replica serves its requests
// (the completion that makes the next events among them). A batch that arrives while a pass runs
// joins it, so the subscribers not written yet get both in one write; the next pass hands it to
// those written before (bench watchers, fourth and sixth passes).
import { channel } from "node:diagnostics_channel";

import type { Delivery } from "./delivery.ts";
import type { LiveSubscriber } from "./hub.ts";

/** Subscribers written per turn of the event loop, by default. */
export const FAN_OUT_CHUNK = 200;

/** Published (only when someone listens: benchmarks) with the seqs handed to every subscriber
 * once the last of their writes is done, and how many subscribers were handed them (writes). */
export const writtenChannel = channel("gauntlet:events:written");

/** A subscriber of the fan-out: the highest seq the fan-out handed it is kept on it. */
export interface FanOutSubscriber extends LiveSubscriber {
  handedThrough: number;
}

/** One or more batches on their way to the subscribers of their topics. */
interface Pass {
  /** The deliveries of each topic, in seq order; an array is never changed once handed out. */
  readonly byTopic: Map<string, readonly Delivery[]>;
  /** The topics to walk, in order (batches that join add theirs at the end). */
  readonly topics: string[];
  /** Where the walk is: the topic, and the position in its member set. */
  topicIndex: number;
  members: Iterator<FanOutSubscriber> | null;
  /** The seqs of the batches (only while traced). */
  readonly seqs: number[];
  /** Subscribers handed something in this pass (one write each). */
  handed: number;
}

export class TopicFanOut implements LiveSubscriber {
  readonly #routes: (delivery: Delivery) => readonly string[];
  readonly #byTopic = new Map<string, Set<FanOutSubscriber>>();
  readonly #topicsOf = new Map<FanOutSubscriber, Set<string>>();
  /** The pass being written, then at most one waiting (later batches join that one). */
  readonly #passes: Pass[] = [];
  readonly #chunk: number;
  readonly #onError: (error: unknown) => void;
  #writing = false;
  /** Waiting for every pass to be written. */
  #waiting: (() => void)[] = [];

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

  add(subscriber: FanOutSubscriber, topic: string): void {
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

  /** Drops the subscriber from every topic: nothing more is handed to it. */
  remove(subscriber: FanOutSubscriber): void {
    for (const topic of this.#topicsOf.get(subscriber) ?? []) {
      const members = this.#byTopic.get(topic);
      members?.delete(subscriber);
      if (members?.size === 0) this.#byTopic.delete(topic);
    }
    this.#topicsOf.delete(subscriber);
  }

  /** Settles once every subscriber was handed what it is owed now. */
  written(): Promise<void> {
    if (!this.#writing) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  deliver(deliveries: readonly Delivery[]): void {
    const byTopic = new Map<string, Delivery[]>();
    for (const delivery of deliveries)
      for (const topic of this.#routes(delivery)) {
        if (!this.#byTopic.has(topic)) continue;
        const list = byTopic.get(topic);
        if (!list) byTopic.set(topic, [delivery]);
        else if (list[list.length - 1] !== delivery) list.push(delivery);
      }
    const traced = writtenChannel.hasSubscribers;
    if (byTopic.size === 0 && !traced) return;
    const seqs = traced ? deliveries.map((d) => d.row.seq) : [];
    const [running, waiting] = this.#passes;
    // The pass being written takes the batch too, for the subscribers it has not reached; the
    // waiting pass (made now if there is none) takes it for those it has.
    if (running && this.#writing) join(running, byTopic, []);
    if (waiting) join(waiting, byTopic, seqs);
    else
      this.#passes.push({
        byTopic,
        topics: [...byTopic.keys()],
        topicIndex: 0,
        members: null,
        seqs,
        handed: 0,
      });
    if (!this.#writing) this.#write();
  }

  // A chunk now; the rest on later turns, after the I/O that waited (setImmediate).
  #write(): void {
    this.#writing = true;
    let written = 0;
    for (let pass = this.#passes[0]; pass; pass = this.#passes[0]) {
      while (pass.topicIndex < pass.topics.length) {
        const topic = pass.topics[pass.topicIndex] ?? "";
        pass.members ??= (this.#byTopic.get(topic) ?? new Set<FanOutSubscriber>()).values();
        for (;;) {
          if (this.#chunk > 0 && written >= this.#chunk) {
            setImmediate(() => this.#write());
            return;
          }
          const next = pass.members.next();
          if (next.done) break;
          if (this.#hand(pass, topic, next.value)) {
            written += 1;
            pass.handed += 1;
          }
        }
        pass.members = null;
        pass.topicIndex += 1;
      }
      this.#passes.shift();
      if (pass.seqs.length > 0) writtenChannel.publish({ seqs: pass.seqs, writes: pass.handed });
    }
    this.#writing = false;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Hands the subscriber what it is owed of the pass; false when it was owed nothing. */
  #hand(pass: Pass, topic: string, subscriber: FanOutSubscriber): boolean {
    const topics = this.#topicsOf.get(subscriber);
    const share =
      topics === undefined || topics.size <= 1
        ? owed(pass.byTopic.get(topic) ?? [], subscriber.handedThrough)
        : merged(pass, topics, subscriber.handedThrough);
    const last = share[share.length - 1];
    if (!last) return false;
    subscriber.handedThrough = last.row.seq;
    try {
      subscriber.deliver(share);
    } catch (error) {
      this.#onError(error);
    }
    return true;
  }
}

/** A batch joins a pass: each topic's deliveries after the pass's own (a new array). */
function join(pass: Pass, byTopic: Map<string, Delivery[]>, seqs: number[]): void {
  for (const [topic, list] of byTopic) {
    const before = pass.byTopic.get(topic);
    if (before) pass.byTopic.set(topic, [...before, ...list]);
    else {
      pass.byTopic.set(topic, list);
      pass.topics.push(topic);
    }
  }
  pass.seqs.push(...seqs);
}

/** The deliveries after `through`: the array itself when it is all owed (the common case). */
function owed(list: readonly Delivery[], through: number): readonly Delivery[] {
  const first = list[0];
  if (first === undefined || first.row.seq > through) return list;
  return list.filter((d) => d.row.seq > through);
}

/** A subscriber of several topics: the pass's deliveries of all of them after `through`, in seq
 * order, each once. */
function merged(pass: Pass, topics: Set<string>, through: number): readonly Delivery[] {
  const out: Delivery[] = [];
  for (const topic of topics)
    for (const d of pass.byTopic.get(topic) ?? []) if (d.row.seq > through) out.push(d);
  out.sort((a, b) => a.row.seq - b.row.seq);
  return out.filter((d, i) => i === 0 || out[i - 1] !== d);
}
