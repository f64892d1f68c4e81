// What only the Redis store has: one round trip, script loading, expiry, atomicity across
// connections, the Redis clock, and failing fast when Redis is away.
import { randomUUID } from "node:crypto";

import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { USER_CAPACITIES, type BudgetCapacities } from "@gauntlet/core";

import { RedisBudgetStore } from "./redis-store.ts";

const REDIS_URL = process.env.REDIS_URL;
const T0 = 1_700_000_000_000;
const tiny: BudgetCapacities = {
  requestsPerMinute: 50,
  requestsPerHour: 1000,
  complexityPerMinute: 5000,
  complexityPerHour: 50000,
};

describe.runIf(REDIS_URL)("Redis budget store", () => {
  const url = REDIS_URL ?? "";
  const keyPrefix = `test:budget:${randomUUID()}:`;
  const admin = createClient({ url });
  const stores: RedisBudgetStore[] = [];

  async function openStore(
    options: { clock?: () => number; clientName?: string } = {},
  ): Promise<RedisBudgetStore> {
    const store = new RedisBudgetStore({ url, keyPrefix, ...options });
    stores.push(store);
    await store.ready;
    return store;
  }

  beforeAll(async () => {
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    const keys = await admin.keys(`${keyPrefix}*`);
    if (keys.length > 0) await admin.del(keys);
    await admin.close();
  });

  it("decides in one round trip: a single EVALSHA on the store's connection, nothing else", async () => {
    const name = `budget-test-${randomUUID().slice(0, 8)}`;
    const store = await openStore({ clientName: name });
    await store.decide("one-trip", USER_CAPACITIES, 10, true); // loads the script if needed
    const clients = String(await admin.sendCommand<string>(["CLIENT", "LIST"]));
    const addr = clients
      .split("\n")
      .find((line) => line.includes(` name=${name} `))
      ?.match(/ addr=(\S+) /)?.[1];
    expect(addr).toBeDefined();

    const monitor = admin.duplicate();
    await monitor.connect();
    const lines: string[] = [];
    await monitor.monitor((line) => lines.push(line));
    for (let i = 0; i < 5; i++) await store.decide("one-trip", USER_CAPACITIES, 10, true);
    // MONITOR reports commands in the order Redis ran them: once this marker shows, so have the five.
    const marker = `marker-${Date.now()}`;
    await admin.sendCommand(["ECHO", marker]);
    while (!lines.some((line) => line.includes(marker)))
      await new Promise((resolve) => setTimeout(resolve, 10));
    await monitor.close();
    const seen = lines.filter((line) => line.includes(`[0 ${addr}]`));
    expect(seen).toHaveLength(5);
    for (const line of seen) expect(line).toMatch(/\] "EVALSHA" "[0-9a-f]{40}" "1" /);
  });

  it("loads the script again when Redis has lost it (NOSCRIPT), then goes back to EVALSHA", async () => {
    const store = await openStore({ clock: () => T0 });
    await admin.sendCommand(["SCRIPT", "FLUSH"]);
    const first = await store.decide("noscript", tiny, 10, true);
    expect(first.allowed).toBe(true);
    const second = await store.decide("noscript", tiny, 10, true);
    expect(second.buckets.requestsMinute.remaining).toBe(48);
  });

  it("keeps one hash per identity with the four TATs, expiring when every bucket is full again", async () => {
    const store = await openStore();
    const redisSeconds = async () =>
      Number((await admin.sendCommand<[string, string]>(["TIME"]))[0]);
    const before = Date.now();
    const secondsBefore = await redisSeconds();
    const decision = await store.decide("layout", USER_CAPACITIES, 1000, true);
    const key = `${keyPrefix}layout`;
    expect(Object.keys(await admin.hGetAll(key)).sort()).toEqual(["ch", "cm", "rh", "rm"]);
    const ttl = await admin.pTTL(key);
    const since = Date.now() - before;
    const secondsAfter = await redisSeconds();
    // 1000 complexity credits refill in 10 s at 100 per second (the slowest of the four here),
    // less the time that passed between the decision and the TTL read.
    expect(ttl).toBeLessThanOrEqual(10_000);
    expect(ttl).toBeGreaterThanOrEqual(10_000 - since - 1);
    // By the Redis clock: the reset is 10 s after the decision, which Redis TIME brackets.
    expect(decision.buckets.complexityHour.resetUnixSeconds).toBeGreaterThanOrEqual(
      secondsBefore + 10,
    );
    expect(decision.buckets.complexityHour.resetUnixSeconds).toBeLessThanOrEqual(secondsAfter + 11);
  });

  it("admits exactly the capacity when two connections race for one identity", async () => {
    const a = await openStore({ clock: () => T0 });
    const b = await openStore({ clock: () => T0 });
    const decisions = await Promise.all(
      Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? a : b).decide("race", tiny, 1, true)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    const remaining = decisions
      .filter((d) => d.allowed)
      .map((d) => d.buckets.requestsMinute.remaining);
    expect(new Set(remaining).size).toBe(50);
  });

  it("answers readiness probes with PING", async () => {
    const store = await openStore();
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe("Redis budget store without Redis", () => {
  // How fast is bench/latencies' figure; here: it fails each time, rather than wait for a connection.
  it("fails, and keeps failing, when nothing listens", async () => {
    const errors: Error[] = [];
    const store = new RedisBudgetStore({
      url: "redis://127.0.0.1:1",
      onError: (e) => errors.push(e),
    });
    try {
      for (let i = 0; i < 3; i++)
        await expect(store.decide("nobody", USER_CAPACITIES, 10, true)).rejects.toThrow();
      await expect(store.ping()).rejects.toThrow();
    } finally {
      await store.close();
    }
  });
});
