// Budgets in Redis, shared by every server replica. One decision is one round trip: EVALSHA of
// a Lua script that checks and debits the identity's four buckets atomically by the Redis
// clock. One key per identity (a hash of four TATs), so it is cluster-safe; the key expires
// when every bucket is full again. The numbers of the decision come from core's pure function
// applied to the state the script saw, so Redis and memory report identically.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

import { createClient } from "redis";

import {
  assertCapacities,
  assertComplexity,
  bestEffort,
  decideBudgetAtMicros,
  toMicros,
  type BudgetCapacities,
  type BudgetDecision,
} from "@gauntlet/core";

import type { BudgetStore } from "./store.ts";

const SCRIPT = readFileSync(new URL("./decide-budget.lua", import.meta.url), "utf8");
const SCRIPT_SHA = createHash("sha1").update(SCRIPT).digest("hex");

export interface RedisBudgetStoreOptions {
  url: string;
  /** Prepended to each identity's key. */
  keyPrefix?: string;
  /** Shown by CLIENT LIST, so that operators can tell the connection apart. */
  clientName?: string;
  /** A command with no answer after this long fails (and leaves the client's queue). */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  /**
   * Milliseconds since the Unix epoch, passed to the script in place of Redis TIME. For tests
   * only: in production the Redis clock is the one clock all replicas share.
   */
  clock?: () => number;
  /** Connection errors; the client reconnects by itself. */
  onError?: (error: Error) => void;
}

function isDecisionReply(
  reply: unknown,
): reply is [number, number, number, number, number, number] {
  return (
    Array.isArray(reply) &&
    reply.length === 6 &&
    reply.every((n) => typeof n === "number" && Number.isSafeInteger(n))
  );
}

export class RedisBudgetStore implements BudgetStore {
  readonly #client;
  readonly #keyPrefix: string;
  readonly #clock: (() => number) | undefined;
  readonly #settleReady: () => void;
  /** Settles when the first connection is made, or the client is closed first. Never rejects;
   * pending while Redis is unreachable. */
  readonly ready: Promise<void>;

  constructor(options: RedisBudgetStoreOptions) {
    this.#keyPrefix = options.keyPrefix ?? "gauntlet:budget:";
    this.#clock = options.clock;
    this.#client = createClient({
      url: options.url,
      name: options.clientName ?? "gauntlet-budgets",
      // Without a connection, fail at once (and fail open) rather than queue requests.
      disableOfflineQueue: true,
      commandOptions: { timeout: options.commandTimeoutMs ?? 1_000 },
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 2_000,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000),
      },
    });
    const onError = options.onError;
    this.#client.on("error", (error: unknown) => {
      onError?.(error instanceof Error ? error : new Error(String(error)));
    });
    // connect() may never settle when the client is destroyed mid-handshake: settle it here.
    let resolve = () => {};
    this.ready = new Promise<undefined>((settle) => {
      resolve = () => settle(undefined);
    });
    this.#settleReady = resolve;
    this.#client.connect().then(
      () => resolve(),
      (error: unknown) => {
        onError?.(error instanceof Error ? error : new Error(String(error)));
        resolve();
      },
    );
  }

  async decide(
    key: string,
    caps: BudgetCapacities,
    cost: number,
    debit: boolean,
  ): Promise<BudgetDecision> {
    assertComplexity(cost);
    assertCapacities(caps);
    const args = [
      "1",
      this.#keyPrefix + key,
      String(cost),
      debit ? "1" : "0",
      String(caps.requestsPerMinute),
      String(caps.requestsPerHour),
      String(caps.complexityPerMinute),
      String(caps.complexityPerHour),
    ];
    if (this.#clock) args.push(String(toMicros(this.#clock())));
    const reply = await this.#run(args);
    if (!isDecisionReply(reply))
      throw new Error(`Unexpected reply from the budget script: ${JSON.stringify(reply)}`);
    const [allowed, nowUs, requestsMinute, requestsHour, complexityMinute, complexityHour] = reply;
    const decision = decideBudgetAtMicros(
      { requestsMinute, requestsHour, complexityMinute, complexityHour },
      caps,
      cost,
      nowUs,
      debit,
    );
    if (decision.allowed !== (allowed === 1))
      throw new Error("The budget script and the core decision disagree");
    return decision;
  }

  async ping(): Promise<void> {
    await this.#client.sendCommand(["PING"]);
  }

  /** Waits a little for answers still due, then drops the connection whatever its state. */
  async close(): Promise<void> {
    if (this.#client.isReady) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const closed = bestEffort(this.#client.close());
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
    }
    if (this.#client.isOpen) this.#client.destroy();
    this.#settleReady();
  }

  // EVALSHA; when Redis lacks the script (restart, SCRIPT FLUSH, a new node), EVAL sends and
  // caches it, so the next decision is one EVALSHA again.
  async #run(args: string[]): Promise<unknown> {
    try {
      return await this.#client.sendCommand(["EVALSHA", SCRIPT_SHA, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return await this.#client.sendCommand(["EVAL", SCRIPT, ...args]);
    }
  }
}
