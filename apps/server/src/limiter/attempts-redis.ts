// Failed attempts in Redis, shared by every replica: a counter key that expires after the quiet
// window, and a lock key whose time to live is the lock (Redis's clock, no replica's). One Lua
// script counts a failure and sets the lock atomically. When Redis cannot answer, the replica
// keeps counting in its own memory rather than letting every guess through.
import { createClient } from "redis";

import { MemoryAttemptStore, type AttemptPolicy, type AttemptStore } from "./attempts.ts";

const FAIL = `
local n = redis.call('INCR', KEYS[1])
local free = tonumber(ARGV[1])
local lock = 0
if n > free then
  lock = math.min(tonumber(ARGV[2]) * 2 ^ (n - free - 1), tonumber(ARGV[3]))
  redis.call('SET', KEYS[2], '1', 'PX', math.floor(lock))
end
redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[4]), math.floor(lock)))
return math.floor(lock)
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
    this.#client.connect().catch((error: unknown) => {
      this.#onError?.(error instanceof Error ? error : new Error(String(error)));
    });
  }

  async lockedFor(key: string): Promise<number> {
    try {
      const ttl = await this.#client.sendCommand(["PTTL", `${this.#prefix}${key}:lock`]);
      const local = await this.#fallback.lockedFor(key);
      return Math.max(typeof ttl === "number" && ttl > 0 ? ttl : 0, local);
    } catch {
      return this.#fallback.lockedFor(key);
    }
  }

  async fail(key: string, policy: AttemptPolicy): Promise<number> {
    try {
      const lock = await this.#client.sendCommand([
        "EVAL",
        FAIL,
        "2",
        `${this.#prefix}${key}:n`,
        `${this.#prefix}${key}:lock`,
        String(policy.free),
        String(policy.baseLockMs),
        String(policy.maxLockMs),
        String(policy.windowMs),
      ]);
      return typeof lock === "number" ? lock : 0;
    } catch {
      return this.#fallback.fail(key, policy);
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
    if (this.#client.isOpen) await this.#client.close().catch(() => undefined);
  }
}
