import { createConnection, createServer, type Server, type Socket } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import {
  RATE_LIMIT_ERROR_TYPE,
  RateLimitErrorBody,
  SERVICE_CAPACITIES,
  USER_CAPACITIES,
  type BudgetCapacities,
  type BudgetDecision,
} from "@gauntlet/core";

import { createLimiter, type LimiterOptions } from "./limiter.ts";
import { MemoryBudgetStore } from "./memory-store.ts";
import { RedisBudgetStore } from "./redis-store.ts";
import type { BudgetStore } from "./store.ts";

const T0 = 1_700_000_000_000;
const T0_S = T0 / 1000;
const DOCS = "https://gauntlet.example/docs/rate-limits";
const alice = { budgetKey: "user_alice", kind: "user" as const };
const robot = { budgetKey: "machine_robot", kind: "machine" as const };

function limiterWith(store: BudgetStore, options: Partial<LimiterOptions> = {}) {
  return createLimiter({
    mode: "enforced",
    store,
    capacities: { user: USER_CAPACITIES, machine: SERVICE_CAPACITIES },
    documentationUrl: DOCS,
    ...options,
  });
}

/** A store that fails (throws or never answers) while `failing` is set, and counts its calls. */
class FlakyStore implements BudgetStore {
  failing: "throw" | "hang" | false = "throw";
  calls = 0;
  readonly #inner = new MemoryBudgetStore({ clock: () => T0 });
  decide(
    key: string,
    caps: BudgetCapacities,
    cost: number,
    debit: boolean,
  ): Promise<BudgetDecision> {
    this.calls++;
    if (this.failing === "throw")
      return Promise.reject(
        new Error("NOPERM this user has no permissions to run the 'evalsha' command"),
      );
    if (this.failing === "hang") return new Promise<BudgetDecision>(() => undefined);
    return this.#inner.decide(key, caps, cost, debit);
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
}

describe("enforced", () => {
  it("allows within budget, with every header of docs/architecture.md for the identity's capacities", async () => {
    const limiter = limiterWith(new MemoryBudgetStore({ clock: () => T0 }));
    const result = await limiter.evaluate(alice, 10);
    expect(result.outcome).toBe("allowed");
    expect(result.rejection).toBeUndefined();
    expect(result.headers).toMatchObject({
      "X-Complexity": "10",
      "X-RateLimit-Mode": "enforced",
      "X-RateLimit-Outcome": "allowed",
      "X-RateLimit-Retry-After": "0",
      "X-RateLimit-Requests-Minute-Limit": "2400",
      "X-RateLimit-Requests-Minute-Remaining": "2399",
      "X-RateLimit-Requests-Minute-Reset": String(T0_S + 1),
      "X-RateLimit-Complexity-Hour-Limit": "360000",
    });
    expect(result.headers).not.toHaveProperty("Retry-After");
    const machine = await limiter.evaluate(robot, 10);
    expect(machine.headers["X-RateLimit-Requests-Minute-Limit"]).toBe("9600");
  });

  it("rejects over budget with the 429 of docs/api.md, and the rejection costs nothing", async () => {
    let now = T0;
    const limiter = limiterWith(new MemoryBudgetStore({ clock: () => now }));
    for (let i = 0; i < 24; i++)
      expect((await limiter.evaluate(alice, 1000)).outcome).toBe("allowed");
    const result = await limiter.evaluate(alice, 1000);
    expect(result.outcome).toBe("rejected");
    expect(result.rejection?.status).toBe(429);
    const body = RateLimitErrorBody.parse(result.rejection?.body);
    expect(body.detail).toMatchObject({
      type: RATE_LIMIT_ERROR_TYPE,
      retry_after_seconds: 3,
      documentation_url: DOCS,
    });
    expect(body.detail.message).toContain("3");
    expect(result.headers).toMatchObject({
      "Retry-After": "3",
      "X-RateLimit-Retry-After": "3",
      "X-RateLimit-Outcome": "rejected",
      "X-RateLimit-Requests-Minute-Remaining": "2376",
    });
    // Rejections debited nothing: 2.5 s later the same cost fits.
    for (let i = 0; i < 5; i++) await limiter.evaluate(alice, 1000);
    now += 2_500;
    expect((await limiter.evaluate(alice, 1000)).outcome).toBe("allowed");
  });

  it("applies per-identity overrides over the kind's capacities", async () => {
    const limiter = limiterWith(new MemoryBudgetStore({ clock: () => T0 }), {
      overrides: { user_alice: { requestsPerMinute: 2 } },
    });
    expect((await limiter.evaluate(alice, 1)).headers["X-RateLimit-Requests-Minute-Limit"]).toBe(
      "2",
    );
    expect((await limiter.evaluate(alice, 1)).outcome).toBe("allowed");
    expect((await limiter.evaluate(alice, 1)).outcome).toBe("rejected");
    expect((await limiter.evaluate({ budgetKey: "user_bob", kind: "user" }, 1)).outcome).toBe(
      "allowed",
    );
  });

  it("keeps a user and a machine of the same key apart", async () => {
    const limiter = limiterWith(new MemoryBudgetStore({ clock: () => T0 }), {
      overrides: { same: { requestsPerMinute: 1 } },
    });
    expect((await limiter.evaluate({ budgetKey: "same", kind: "user" }, 1)).outcome).toBe(
      "allowed",
    );
    expect((await limiter.evaluate({ budgetKey: "same", kind: "machine" }, 1)).outcome).toBe(
      "allowed",
    );
  });

  it("refuses capacities that are not positive integers when created", () => {
    expect(() =>
      limiterWith(new MemoryBudgetStore(), { overrides: { x: { requestsPerHour: 0 } } }),
    ).toThrow(RangeError);
  });
});

describe("log-only", () => {
  it("lets an over-budget request through as would_reject, without Retry-After, and debits nothing", async () => {
    let now = T0;
    const limiter = limiterWith(new MemoryBudgetStore({ clock: () => now }), { mode: "log-only" });
    for (let i = 0; i < 24; i++) await limiter.evaluate(alice, 1000);
    const result = await limiter.evaluate(alice, 1000);
    expect(result.outcome).toBe("would_reject");
    expect(result.rejection).toBeUndefined();
    expect(result.headers["X-RateLimit-Mode"]).toBe("log-only");
    expect(result.headers["X-RateLimit-Retry-After"]).toBe("3");
    expect(result.headers).not.toHaveProperty("Retry-After");
    now += 2_500;
    expect((await limiter.evaluate(alice, 1000)).outcome).toBe("allowed");
  });
});

describe("off", () => {
  it("sends no headers and never asks the store", async () => {
    const store = new FlakyStore();
    const limiter = limiterWith(store, { mode: "off" });
    expect(await limiter.evaluate(alice, 10)).toEqual({ outcome: "off", headers: {}, lines: "" });
    expect(store.calls).toBe(0);
  });
});

describe("failing open", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it("answers unavailable with only cost, mode and outcome when the store errs", async () => {
    const errors: Error[] = [];
    const limiter = limiterWith(new FlakyStore(), { onStoreError: (e) => errors.push(e) });
    const result = await limiter.evaluate(alice, 50);
    expect(result).toEqual({
      outcome: "unavailable",
      headers: {
        "X-Complexity": "50",
        "X-RateLimit-Mode": "enforced",
        "X-RateLimit-Outcome": "unavailable",
      },
      lines:
        "x-complexity: 50\r\nx-ratelimit-mode: enforced\r\nx-ratelimit-outcome: unavailable\r\n",
    });
    expect(errors[0]?.message).toContain("NOPERM");
  });

  it("gives up on a store that does not answer within storeTimeoutMs", async () => {
    const store = new FlakyStore();
    store.failing = "hang";
    const limiter = limiterWith(store, { storeTimeoutMs: 50 });
    // The store never answers: only the timeout can end this (how long it adds is bench/latencies').
    const result = await limiter.evaluate(alice, 10);
    expect(result.outcome).toBe("unavailable");
    expect(store.calls).toBe(1);
  });

  it("stops asking a failing store for a cooldown, probes it once, and recovers", async () => {
    let now = T0;
    const store = new FlakyStore();
    const limiter = limiterWith(store, {
      clock: () => now,
      breaker: { failures: 3, cooldownMs: 1_000 },
    });
    for (let i = 0; i < 10; i++)
      expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
    expect(store.calls).toBe(3);
    now += 1_000;
    expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
    expect(store.calls).toBe(4); // the probe, which failed: open again
    expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
    expect(store.calls).toBe(4);
    store.failing = false;
    now += 1_000;
    expect((await limiter.evaluate(alice, 10)).outcome).toBe("allowed");
    expect((await limiter.evaluate(alice, 10)).outcome).toBe("allowed");
    expect(store.calls).toBe(6);
  });

  it("lets only one probe through while the store is slow to answer it", async () => {
    let now = T0;
    const store = new FlakyStore();
    const limiter = limiterWith(store, {
      clock: () => now,
      breaker: { failures: 1, cooldownMs: 1_000 },
      storeTimeoutMs: 30,
    });
    await limiter.evaluate(alice, 10);
    now += 1_000;
    store.failing = "hang";
    const results = await Promise.all(Array.from({ length: 5 }, () => limiter.evaluate(alice, 10)));
    expect(results.every((r) => r.outcome === "unavailable")).toBe(true);
    expect(store.calls).toBe(2);
  });

  // How little time failing open adds is measured by bench/latencies, not asserted here.
  it("fails open with Redis gone: nothing listening", async () => {
    const store = new RedisBudgetStore({ url: "redis://127.0.0.1:1" });
    const limiter = limiterWith(store);
    try {
      for (let i = 0; i < 5; i++)
        expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
    } finally {
      await limiter.close();
    }
  });

  it("fails open with Redis stuck: it accepts connections and never completes the handshake", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const store = new RedisBudgetStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 200 });
    const limiter = limiterWith(store);
    try {
      for (let i = 0; i < 5; i++)
        expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
    } finally {
      await limiter.close();
      for (const s of sockets) s.destroy();
    }
  });

  it.runIf(process.env.REDIS_URL)(
    "times out on a connected Redis that stops answering, opens the circuit, and recovers",
    async () => {
      const proxy = await freezableProxy(new URL(process.env.REDIS_URL ?? ""));
      servers.push(proxy.server);
      const redis = new RedisBudgetStore({
        url: `redis://127.0.0.1:${proxy.port}`,
        keyPrefix: `test:budget:${Date.now()}:`,
      });
      await redis.ready;
      // Counts what reaches the store; the breaker's clock is the test's, so no cooldown is waited out.
      let calls = 0;
      const store: BudgetStore = {
        decide: (...args) => (calls++, redis.decide(...args)),
        close: () => redis.close(),
      };
      let now = T0;
      // A timeout a busy machine's Redis never needs, so that only the frozen proxy trips it.
      const limiter = limiterWith(store, {
        storeTimeoutMs: 1_500,
        clock: () => now,
        breaker: { failures: 2, cooldownMs: 300 },
      });
      try {
        expect((await limiter.evaluate(alice, 10)).outcome).toBe("allowed");
        proxy.frozen = true;
        for (let i = 0; i < 2; i++)
          expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
        expect(calls).toBe(3);
        // The circuit is open: the store is not asked at all.
        expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
        expect(calls).toBe(3);
        proxy.frozen = false;
        now += 300;
        expect((await limiter.evaluate(alice, 10)).outcome).toBe("allowed");
        expect(calls).toBe(4);
      } finally {
        await limiter.close();
        proxy.close();
      }
    },
  );
});

/** A TCP proxy to Redis that, while frozen, holds what clients send (a hung Redis). */
async function freezableProxy(target: URL) {
  const held: { socket: Socket; chunk: Buffer }[] = [];
  const open: Socket[] = [];
  const state = { frozen: false };
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 6379) });
    open.push(client, upstream);
    client.on("data", (chunk: Buffer) =>
      state.frozen ? held.push({ socket: upstream, chunk }) : upstream.write(chunk),
    );
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    server,
    port: typeof address === "object" && address ? address.port : 0,
    get frozen() {
      return state.frozen;
    },
    set frozen(value: boolean) {
      state.frozen = value;
      if (!value) for (const { socket, chunk } of held.splice(0)) socket.write(chunk);
    },
    close() {
      for (const socket of open) socket.destroy();
    },
  };
}
