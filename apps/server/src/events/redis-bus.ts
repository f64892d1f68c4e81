// The event bus over Redis pub/sub: each replica publishes the rows it recorded on one channel
// and hears every replica's (its own included), so all subscribers see all events.
import type { CompetitionEventsTable } from "../store/schema.ts";
import type { EventBus, EventListener } from "./bus.ts";
import { closeClients, connectChannel, parseMessage, type RedisClient } from "./redis-clients.ts";

export interface RedisEventBusOptions {
  url: string;
  channel?: string | undefined;
  onError?: (error: Error) => void;
}

function isRow(value: unknown): value is CompetitionEventsTable {
  return (
    typeof value === "object" &&
    value !== null &&
    "seq" in value &&
    typeof value.seq === "number" &&
    "id" in value &&
    typeof value.id === "string"
  );
}

export class RedisEventBus implements EventBus {
  readonly kind = "redis";
  readonly #channel: string;
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  readonly #listeners = new Set<EventListener>();
  readonly #ready: Promise<void>;
  readonly #onError: (error: Error) => void;
  #closed = false;

  constructor(options: RedisEventBusOptions) {
    const channel = options.channel ?? "gauntlet:events";
    this.#onError = options.onError ?? (() => undefined);
    this.#channel = channel;
    const clients = connectChannel(
      options.url,
      "gauntlet-events",
      channel,
      (message) => this.#receive(message),
      this.#onError,
    );
    this.#publisher = clients.publisher;
    this.#subscriber = clients.subscriber;
    this.#ready = clients.ready;
  }

  #receive(message: string): void {
    const parsed = parseMessage(message, "an event message", this.#onError);
    if (parsed === undefined) return;
    if (!Array.isArray(parsed) || !parsed.every(isRow)) {
      this.#onError(new Error("an event message on Redis is not a list of events"));
      return;
    }
    for (const listener of this.#listeners) listener(parsed);
  }

  publish(rows: readonly CompetitionEventsTable[]): void {
    if (rows.length === 0 || this.#closed) return;
    this.#publisher.publish(this.#channel, JSON.stringify(rows)).catch((error: unknown) => {
      this.#onError(error instanceof Error ? error : new Error(String(error)));
    });
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    await closeClients([this.#subscriber, this.#publisher]);
  }
}
