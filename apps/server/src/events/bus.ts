// The event bus: how recorded events reach every replica's subscribers. In one process it is a
// direct call; with Redis (redis-bus.ts) every replica receives what any replica publishes.
// Publishing happens after the writing transaction commits. The bus may lose a message (a crash
// between commit and publish, a Redis outage): the hub fills such gaps from the event log.
import type { CompetitionEventsTable } from "../store/schema.ts";

export type EventListener = (rows: readonly CompetitionEventsTable[]) => void;

export interface EventBus {
  readonly kind: "local" | "redis";
  publish(rows: readonly CompetitionEventsTable[]): void;
  subscribe(listener: EventListener): () => void;
  /** Settles once the bus can deliver (immediately for the local bus). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export class LocalEventBus implements EventBus {
  readonly kind = "local";
  readonly #listeners = new Set<EventListener>();

  publish(rows: readonly CompetitionEventsTable[]): void {
    if (rows.length === 0) return;
    for (const listener of this.#listeners) listener(rows);
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
