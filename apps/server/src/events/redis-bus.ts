// The event bus over Redis pub/sub: each replica publishes the rows it recorded on one channel
// and hears every replica's (its own included), so all subscribers see all events.
import { createClient } from "redis";
import type { CompetitionEventsTable } from "../store/schema.ts";
import type { EventBus, EventListener } from "./bus.ts";

/** What the bus keeps of a client after connecting it. */
interface RedisClient {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  publish(channel: string, message: string): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
}

export interface RedisEventBusOptions {
  url: string;
  channel?: string | undefined;
  onError?: (error: Error) => void;
}

function isRow(value: unknown): value is CompetitionEventsTable {
  return typeof value === "object" && value !== null && "seq" in value && typeof value.seq === "number" && "id" in value && typeof value.id === "string";
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
    const onError = options.onError ?? (() => undefined);
    const socket = { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) };
    const publisher = createClient({ url: options.url, name: "gauntlet-events-pub", socket });
    const subscriber = createClient({ url: options.url, name: "gauntlet-events-sub", socket });
    const report = (error: unknown) => onError(error instanceof Error ? error : new Error(String(error)));
    publisher.on("error", report);
    subscriber.on("error", report);
    this.#channel = channel;
    this.#onError = onError;
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#ready = (async () => {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(channel, (message) => this.#receive(message));
    })();
    // A failed first connection is reported; ready() rejects for whoever waits on it.
    this.#ready.catch(report);
  }

  #receive(message: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      this.#onError(new Error("an event message on Redis is not JSON"));
      return;
    }
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
    await Promise.all(
      [this.#subscriber, this.#publisher].map(async (client) => {
        if (client.isReady) await client.close().catch(() => undefined);
        if (client.isOpen) client.destroy();
      }),
    );
  }
}
