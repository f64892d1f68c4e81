// A channel of JSON messages that reach every replica (this one's included), in the order each
// replica sent them, with nothing recorded: the two sockets of a human seat meet over it
// (play/relay.ts). In one process a message is handed on in a microtask; with Redis every
// replica hears what any replica publishes. A message sent while Redis is down waits in the
// client's queue until it reconnects (late rather than lost).
import { closeClients, connectChannel, parseMessage, type RedisClient } from "./redis-clients.ts";

export type MessageListener = (message: unknown) => void;

export interface MessageBus {
  publish(message: unknown): void;
  subscribe(listener: MessageListener): () => void;
  close(): Promise<void>;
}

export class LocalMessageBus implements MessageBus {
  readonly #listeners = new Set<MessageListener>();

  publish(message: unknown): void {
    // Later, as over Redis: a listener's own publish never runs inside the sender's call.
    queueMicrotask(() => {
      for (const listener of this.#listeners) listener(message);
    });
  }

  subscribe(listener: MessageListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

export interface RedisMessageBusOptions {
  url: string;
  channel: string;
  onError?: (error: Error) => void;
}

export class RedisMessageBus implements MessageBus {
  readonly #channel: string;
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  readonly #listeners = new Set<MessageListener>();
  readonly #ready: Promise<void>;
  readonly #onError: (error: Error) => void;
  #closed = false;

  constructor(options: RedisMessageBusOptions) {
    this.#channel = options.channel;
    this.#onError = options.onError ?? (() => undefined);
    const clients = connectChannel(
      options.url,
      "gauntlet-messages",
      options.channel,
      (text) => {
        const parsed = parseMessage(text, "a message", this.#onError);
        if (parsed === undefined) return;
        for (const listener of this.#listeners) listener(parsed);
      },
      this.#onError,
    );
    this.#publisher = clients.publisher;
    this.#subscriber = clients.subscriber;
    this.#ready = clients.ready;
  }

  /** Settles once subscribed (rejects when Redis could not be reached at first). */
  ready(): Promise<void> {
    return this.#ready;
  }

  publish(message: unknown): void {
    if (this.#closed) return;
    this.#publisher.publish(this.#channel, JSON.stringify(message)).catch((error: unknown) => {
      this.#onError(error instanceof Error ? error : new Error(String(error)));
    });
  }

  subscribe(listener: MessageListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    await closeClients([this.#subscriber, this.#publisher]);
  }
}
