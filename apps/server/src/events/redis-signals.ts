// Signals over Redis pub/sub. Redis sends a published message to every subscriber of the channel
// before it answers the PUBLISH and in one pass, so once this replica hears its own message back,
// every other replica's connection has been sent it too: publish() waits for that echo, and a
// request that revokes a token answers only after every replica has been told.
import { randomUUID } from "node:crypto";

import { closeClients, connectChannel, parseMessage, type RedisClient } from "./redis-clients.ts";
import type { SignalChannel, SignalListener } from "./signals.ts";

export interface RedisSignalChannelOptions {
  url: string;
  channel: string;
  /** How long publish() waits for its echo before giving up (Redis down). Default 1000 ms. */
  echoTimeoutMs?: number;
  onError?: (error: Error) => void;
}

interface Envelope {
  id: string;
  message: unknown;
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === "object" &&
    value !== null &&
    "id" in value &&
    typeof value.id === "string" &&
    "message" in value
  );
}

export class RedisSignalChannel implements SignalChannel {
  readonly #channel: string;
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  readonly #listeners = new Set<SignalListener>();
  readonly #echoes = new Map<string, () => void>();
  readonly #ready: Promise<void>;
  readonly #echoTimeoutMs: number;
  readonly #onError: (error: Error) => void;
  #closed = false;

  constructor(options: RedisSignalChannelOptions) {
    this.#channel = options.channel;
    this.#echoTimeoutMs = options.echoTimeoutMs ?? 1_000;
    this.#onError = options.onError ?? (() => undefined);
    const clients = connectChannel(
      options.url,
      "gauntlet-signals",
      options.channel,
      (text) => this.#receive(text),
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

  #receive(text: string): void {
    const parsed = parseMessage(text, "a signal", this.#onError);
    if (parsed === undefined) return;
    if (!isEnvelope(parsed))
      return this.#onError(new Error("a signal on Redis has no id and message"));
    for (const listener of this.#listeners) listener(parsed.message);
    this.#echoes.get(parsed.id)?.();
  }

  async publish(message: unknown): Promise<void> {
    if (this.#closed) return;
    const id = randomUUID();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const echoed = new Promise<void>((resolve) => {
      this.#echoes.set(id, resolve);
      timer = setTimeout(() => {
        this.#onError(
          new Error(`a signal did not come back from Redis within ${this.#echoTimeoutMs} ms`),
        );
        resolve();
      }, this.#echoTimeoutMs);
    });
    try {
      await Promise.race([
        this.#ready.then(() =>
          this.#publisher.publish(this.#channel, JSON.stringify({ id, message })),
        ),
        echoed,
      ]);
      await echoed;
    } catch (error) {
      this.#onError(error instanceof Error ? error : new Error(String(error)));
    } finally {
      clearTimeout(timer);
      this.#echoes.delete(id);
    }
  }

  subscribe(listener: SignalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    for (const resolve of this.#echoes.values()) resolve();
    await closeClients([this.#subscriber, this.#publisher]);
  }
}
