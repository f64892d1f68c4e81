// Signals over Redis pub/sub. Redis sends a published message to every subscriber of the channel
// before it answers the PUBLISH and in one pass, so once this replica hears its own message back,
// every other replica's connection has been sent it too: publish() waits for that echo, and a
// request that revokes a token answers only after every replica has been told.
//
// While Redis is down a signal reaches nobody, so a replica must know when it may be missing
// some: each replica publishes a heartbeat every heartbeatMs and trusts what it caches by signals
// only while its subscriber is connected and it heard a heartbeat within trustWindowMs
// (trustEpoch). A signal that did not come back is followed by a wait of trustWindowMs, after
// which every replica cut off from Redis has stopped trusting its cache.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import { bestEffort, settled } from "@gauntlet/core";

import { closeClients, connectChannel, parseMessage, type RedisClient } from "./redis-clients.ts";
import type { SignalChannel, SignalListener } from "./signals.ts";

export interface RedisSignalChannelOptions {
  url: string;
  channel: string;
  /** How long publish() waits for its echo before giving up (Redis down). Default 1000 ms. */
  echoTimeoutMs?: number;
  /** How often this replica proves the channel works with a heartbeat. Default 250 ms. */
  heartbeatMs?: number;
  /** How long after the last message heard the channel is still trusted. Default 1000 ms. */
  trustWindowMs?: number;
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

function isHeartbeat(value: unknown): boolean {
  return typeof value === "object" && value !== null && "heartbeat" in value;
}

export class RedisSignalChannel implements SignalChannel {
  readonly #channel: string;
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  readonly #listeners = new Set<SignalListener>();
  readonly #echoes = new Map<string, () => void>();
  readonly #ready: Promise<void>;
  readonly #echoTimeoutMs: number;
  readonly #trustWindowMs: number;
  readonly #onError: (error: Error) => void;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #closed = false;
  /** Subscriber (re)connections: a signal may have been missed between two of them. */
  #epoch = 0;
  #lastHeardAt = Number.NEGATIVE_INFINITY;

  constructor(options: RedisSignalChannelOptions) {
    this.#channel = options.channel;
    this.#echoTimeoutMs = options.echoTimeoutMs ?? 1_000;
    this.#trustWindowMs = options.trustWindowMs ?? 1_000;
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
    this.#subscriber.on("ready", () => {
      this.#epoch += 1;
    });
    this.#ready = clients.ready;
    void settled(this.#ready.then(() => this.#beat()));
    this.#heartbeat = setInterval(() => this.#beat(), options.heartbeatMs ?? 250);
    this.#heartbeat.unref();
  }

  /** Settles once subscribed (rejects when Redis could not be reached at first). */
  ready(): Promise<void> {
    return this.#ready;
  }

  trustEpoch(now = Date.now()): number | undefined {
    if (this.#closed || !this.#subscriber.isReady) return undefined;
    if (now - this.#lastHeardAt > this.#trustWindowMs) return undefined;
    return this.#epoch;
  }

  #beat(): void {
    // Nothing is queued while disconnected: a heartbeat proves the channel works now or never.
    if (this.#closed || !this.#publisher.isReady) return;
    void bestEffort(this.#publisher.publish(this.#channel, JSON.stringify({ heartbeat: true })));
  }

  #receive(text: string): void {
    this.#lastHeardAt = Date.now();
    const parsed = parseMessage(text, "a signal", this.#onError);
    if (parsed === undefined || isHeartbeat(parsed)) return;
    if (!isEnvelope(parsed))
      return this.#onError(new Error("a signal on Redis has no id and message"));
    for (const listener of this.#listeners) listener(parsed.message);
    this.#echoes.get(parsed.id)?.();
  }

  async publish(message: unknown): Promise<void> {
    if (this.#closed) return;
    const id = randomUUID();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // True once it came back (or the channel closed); false when given up on.
    const echoed = new Promise<boolean>((resolve) => {
      this.#echoes.set(id, () => resolve(true));
      // Known to be cut off: no echo will come, so do not wait for one.
      const wait = this.#subscriber.isReady ? this.#echoTimeoutMs : 0;
      timer = setTimeout(() => resolve(false), wait);
    });
    let heard: boolean;
    try {
      // Sent even while down: the client keeps it until it reconnects, and late is better than lost.
      const sent = this.#ready.then(() =>
        this.#publisher.publish(this.#channel, JSON.stringify({ id, message })),
      );
      sent.catch((error: unknown) =>
        this.#onError(error instanceof Error ? error : new Error(String(error))),
      );
      heard = await echoed;
    } finally {
      clearTimeout(timer);
      this.#echoes.delete(id);
    }
    if (heard) return;
    this.#onError(
      new Error(
        `a signal did not come back from Redis; waiting ${this.#trustWindowMs} ms until every replica has stopped trusting its cache`,
      ),
    );
    await sleep(this.#trustWindowMs);
  }

  subscribe(listener: SignalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#listeners.clear();
    for (const resolve of this.#echoes.values()) resolve();
    await closeClients([this.#subscriber, this.#publisher]);
  }
}
