// What the Redis pub/sub channels of a replica (the event bus, the signals) share: a publishing
// and a subscribing client that reconnect by themselves, closing them, and reading a message.
import { createClient } from "redis";

import { bestEffort } from "@gauntlet/core";

/** What a channel keeps of a client after connecting it. */
export interface RedisClient {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  publish(channel: string, message: string): Promise<unknown>;
  /** A publisher's keys: where a message too large for pub/sub is kept (message-bus.ts). */
  set(key: string, value: string, options: { EX: number }): Promise<unknown>;
  get(key: string): Promise<string | null>;
  /** "ready": (re)connected; a subscriber is subscribed again right after. */
  on(event: "ready", listener: () => void): unknown;
  close(): Promise<unknown>;
  destroy(): void;
}

export interface RedisChannelClients {
  publisher: RedisClient;
  subscriber: RedisClient;
  /** Settles once both are connected and the subscriber listens on the channel; a failure is reported too. */
  ready: Promise<void>;
}

/** Connects a publisher and a subscriber of `channel` (named `${name}-pub` / `-sub` for CLIENT LIST). */
export function connectChannel(
  url: string,
  name: string,
  channel: string,
  onMessage: (text: string) => void,
  onError: (error: Error) => void,
): RedisChannelClients {
  const socket = {
    connectTimeout: 2_000,
    reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000),
  };
  const publisher = createClient({ url, name: `${name}-pub`, socket });
  const subscriber = createClient({ url, name: `${name}-sub`, socket });
  const report = (error: unknown) =>
    onError(error instanceof Error ? error : new Error(String(error)));
  publisher.on("error", report);
  subscriber.on("error", report);
  const ready = (async () => {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel, onMessage);
  })();
  // A failed first connection is reported; ready rejects for whoever waits on it.
  ready.catch(report);
  return { publisher, subscriber, ready };
}

export async function closeClients(clients: readonly RedisClient[]): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      if (client.isReady) await bestEffort(client.close());
      if (client.isOpen) client.destroy();
    }),
  );
}

/** A message's JSON, or undefined (reported) when it is not JSON. */
export function parseMessage(text: string, what: string, onError: (error: Error) => void): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    onError(new Error(`${what} on Redis is not JSON`));
    return undefined;
  }
}
