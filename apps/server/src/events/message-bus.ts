// A channel of JSON messages that reach every replica (this one's included), in the order each
// replica sent them, with nothing recorded: the two sockets of a human seat meet over it
// (play/relay.ts). In one process a message is handed on in a microtask; with Redis every
// replica hears what any replica publishes. A message sent while Redis is down waits in the
// client's queue until it reconnects (late rather than lost).
//
// Over Redis, a large message travels as a key of its own and the channel carries its name:
// Redis cuts a subscriber off once 32 MB wait for it (pub/sub's output-buffer limit), and two
// commissioner messages of 16 MiB, sent back to back by any coworld's commissioner, reach that
// (every replica's subscriber dropped, and what it had not read lost).
import { randomUUID } from "node:crypto";

import { closeClients, connectChannel, parseMessage, type RedisClient } from "./redis-clients.ts";

/** A message past this many characters of JSON is kept in a key rather than published. */
export const STASH_OVER_CHARS = 256 * 1024;
/** How long a kept message waits for every replica to read it. */
const STASH_TTL_SECONDS = 60;
/** The field of the small message that names a kept one. */
const STASH_FIELD = "gauntlet_stashed_message";

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
  readonly #stashPrefix: string;
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  readonly #listeners = new Set<MessageListener>();
  readonly #ready: Promise<void>;
  readonly #onError: (error: Error) => void;
  #closed = false;
  /** Messages read off the channel wait here while a kept one before them is fetched. */
  #inbound: Promise<void> = Promise.resolve();
  #fetching = 0;

  constructor(options: RedisMessageBusOptions) {
    this.#channel = options.channel;
    this.#stashPrefix = `${options.channel}:stash:`;
    this.#onError = options.onError ?? (() => undefined);
    const clients = connectChannel(
      options.url,
      "gauntlet-messages",
      options.channel,
      (text) => this.#heard(text),
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
    const text = JSON.stringify(message);
    const report = (error: unknown) =>
      this.#onError(error instanceof Error ? error : new Error(String(error)));
    // A caller's message shaped like the pointer is kept too, so that the channel only ever
    // carries pointers this bus made (else a receiver would read whatever key it named).
    if (text.length <= STASH_OVER_CHARS && stashKey(message, this.#stashPrefix) === null) {
      this.#publisher.publish(this.#channel, text).catch(report);
      return;
    }
    // One connection runs its commands in order: the key exists before its name is heard.
    const key = `${this.#stashPrefix}${randomUUID()}`;
    this.#publisher.set(key, text, { EX: STASH_TTL_SECONDS }).catch(report);
    this.#publisher.publish(this.#channel, JSON.stringify({ [STASH_FIELD]: key })).catch(report);
  }

  /** A message read off the channel, handed on in the order heard (a kept one fetched first). */
  #heard(text: string): void {
    const parsed = parseMessage(text, "a message", this.#onError);
    if (parsed === undefined) return;
    const key = stashKey(parsed, this.#stashPrefix);
    if (key === null && this.#fetching === 0) {
      this.#deliver(parsed);
      return;
    }
    this.#fetching += 1;
    this.#inbound = this.#inbound.then(async () => {
      try {
        if (key === null) return this.#deliver(parsed);
        const kept = await this.#publisher.get(key);
        if (kept === null) throw new Error(`a kept message (${key}) expired before it was read`);
        const message = parseMessage(kept, "a kept message", this.#onError);
        if (message !== undefined) this.#deliver(message);
      } catch (error) {
        if (!this.#closed) this.#onError(error instanceof Error ? error : new Error(String(error)));
      } finally {
        this.#fetching -= 1;
      }
    });
  }

  #deliver(message: unknown): void {
    for (const listener of this.#listeners) listener(message);
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

/** The key a pointer names: only the exact shape publish makes, under this channel's prefix. */
function stashKey(message: unknown, prefix: string): string | null {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return null;
  const fields = Object.keys(message);
  if (fields.length !== 1 || fields[0] !== STASH_FIELD) return null;
  const key = (message as Record<string, unknown>)[STASH_FIELD];
  return typeof key === "string" && key.startsWith(prefix) ? key : null;
}
