// Failed attempts in Redis, shared by every replica: a counter key that expires after the quiet
// window, and a lock key whose time to live is the lock (Redis's clock, no replica's). One Lua
// script checks the lock, counts the attempt and sets the next lock atomically. When Redis cannot answer, the replica
// keeps counting in its own memory rather than letting every guess through.
import { createClient } from "redis";

import { bestEffort } from "@gauntlet/core";

import { MemoryAttemptStore, type AttemptPolicy, type AttemptStore } from "./attempts.ts";

const ATTEMPT = `
local locked = redis.call('PTTL', KEYS[2])
if locked > 0 then return locked end
local n = redis.call('INCR', KEYS[1])
local free = tonumber(ARGV[1])
local lock = 0
if n > free then
  lock = math.min(tonumber(ARGV[2]) * 2 ^ (n - free - 1), tonumber(ARGV[3]))
  redis.call('SET', KEYS[2], '1', 'PX', math.floor(lock))
end
redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[4]), math.floor(lock)))
return 0
`;

const FORGIVE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

export interface RedisAttemptStoreOptions {
  url: string;
  keyPrefix?: string;
  onError?: (error: Error) => void;
}

export class RedisAttemptStore implements AttemptStore {
  readonly #client;
  readonly #prefix: string;
  readonly #fallback = new MemoryAttemptStore();
  readonly #onError: ((error: Error) => void) | undefined;
  /** Settles once connected (or the first connection failed); never rejects. */
  readonly ready: Promise<void>;

  constructor(options: RedisAttemptStoreOptions) {
    this.#prefix = options.keyPrefix ?? "gauntlet:attempts:";
    this.#onError = options.onError;
    this.#client = createClient({
      url: options.url,
      name: "gauntlet-attempts",
      disableOfflineQueue: true,
      commandOptions: { timeout: 1_000 },
      socket: {
        connectTimeout: 2_000,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000),
      },
    });
    this.#client.on("error", (error: unknown) => {
      this.#onError?.(error instanceof Error ? error : new Error(String(error)));
    });
    this.ready = this.#client.connect().then(
      () => undefined,
      (error: unknown) => {
        this.#onError?.(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  async attempt(key: string, policy: AttemptPolicy): Promise<number> {
    try {
      const locked = await this.#client.sendCommand([
        "EVAL",
        ATTEMPT,
        "2",
        `${this.#prefix}${key}:n`,
        `${this.#prefix}${key}:lock`,
        String(policy.free),
        String(policy.baseLockMs),
        String(policy.maxLockMs),
        String(policy.windowMs),
      ]);
      return typeof locked === "number" ? locked : 0;
    } catch {
      return this.#fallback.attempt(key, policy);
    }
  }

  async forgive(key: string): Promise<void> {
    await this.#fallback.forgive(key);
    try {
      await this.#client.sendCommand(["EVAL", FORGIVE, "1", `${this.#prefix}${key}:n`]);
    } catch {
      // The count expires by itself.
    }
  }

  async clear(key: string): Promise<void> {
    await this.#fallback.clear(key);
    try {
      await this.#client.sendCommand([
        "DEL",
        `${this.#prefix}${key}:n`,
        `${this.#prefix}${key}:lock`,
      ]);
    } catch {
      // The counter expires by itself; a success is not refused for want of Redis.
    }
  }

  async close(): Promise<void> {
    if (this.#client.isOpen) await bestEffort(this.#client.close());
  }
}
