// This replica's subscribers by topic: the hub hands each event here once, and it goes only to
// the subscribers of the topics the event is on (not past every open socket). A subscriber of
// two of an event's topics is handed it twice and sends it once (it keeps the last seq it sent).
import type { Delivery } from "./delivery.ts";
import type { LiveSubscriber } from "./hub.ts";

export class TopicFanOut implements LiveSubscriber {
  readonly #routes: (delivery: Delivery) => readonly string[];
  readonly #byTopic = new Map<string, Set<LiveSubscriber>>();
  readonly #topicsOf = new Map<LiveSubscriber, Set<string>>();

  /** `routes`: the names of the topics an event is on (TopicRules.routes). */
  constructor(routes: (delivery: Delivery) => readonly string[]) {
    this.#routes = routes;
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

  /** Drops the subscriber from every topic: nothing more is handed to it. */
  remove(subscriber: LiveSubscriber): void {
    for (const topic of this.#topicsOf.get(subscriber) ?? []) {
      const members = this.#byTopic.get(topic);
      members?.delete(subscriber);
      if (members?.size === 0) this.#byTopic.delete(topic);
    }
    this.#topicsOf.delete(subscriber);
  }

  deliver(deliveries: readonly Delivery[]): void {
    // Each subscriber gets its share of the batch in one call (one write on its socket).
    const shares = new Map<LiveSubscriber, Delivery[]>();
    for (const delivery of deliveries)
      for (const topic of this.#routes(delivery)) {
        const members = this.#byTopic.get(topic);
        if (!members) continue;
        if (deliveries.length === 1) {
          for (const subscriber of members) subscriber.deliver(deliveries);
          continue;
        }
        for (const subscriber of members) {
          const share = shares.get(subscriber);
          if (!share) shares.set(subscriber, [delivery]);
          else if (share[share.length - 1] !== delivery) share.push(delivery);
        }
      }
    for (const [subscriber, share] of shares) subscriber.deliver(share);
  }
}
