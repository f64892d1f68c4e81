// Failed-attempt counting with backoff, in memory and in Redis (two clients standing for two
// replicas share one count). Redis at REDIS_URL or 127.0.0.1:6379.
import { randomBytes } from "node:crypto";

import { afterAll, describe, expect, it } from "vitest";

import { RedisAttemptStore } from "./attempts-redis.ts";
import { lockAfter, MemoryAttemptStore, type AttemptPolicy } from "./attempts.ts";

const POLICY: AttemptPolicy = {
  free: 2,
  baseLockMs: 60_000,
  maxLockMs: 240_000,
  windowMs: 600_000,
};

describe("lockAfter", () => {
  it("locks nothing within the allowance, then doubles up to the ceiling", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => lockAfter(n, POLICY))).toEqual([
      0, 0, 60_000, 120_000, 240_000, 240_000, 240_000,
    ]);
  });
});

describe("MemoryAttemptStore", () => {
  it("counts attempts in advance, refuses while locked without counting, and forgets", async () => {
    let now = 1_000_000;
    const store = new MemoryAttemptStore(() => now);
    expect([await store.attempt("k", POLICY), await store.attempt("k", POLICY)]).toEqual([0, 0]);
    expect(await store.attempt("k", POLICY)).toBe(0); // the third is let through and locks the next
    expect(await store.attempt("k", POLICY)).toBe(60_000);
    now += 60_000;
    expect(await store.attempt("k", POLICY)).toBe(0); // after the lock, one more: now 120 s
    now += 1;
    expect(await store.attempt("k", POLICY)).toBe(119_999);
    await store.clear("k");
    expect(await store.attempt("k", POLICY)).toBe(0);
    await store.forgive("k");
    await store.forgive("k");
    expect([await store.attempt("k", POLICY), await store.attempt("k", POLICY)]).toEqual([0, 0]);
    now += 600_001;
    expect(await store.attempt("k", POLICY)).toBe(0); // the window forgot the count
  });
});

describe("RedisAttemptStore", () => {
  const url = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  const keyPrefix = `gauntlet:test:attempts:${randomBytes(4).toString("hex")}:`;
  const a = new RedisAttemptStore({ url, keyPrefix });
  const b = new RedisAttemptStore({ url, keyPrefix });
  afterAll(async () => {
    await a.clear("k");
    await Promise.all([a.close(), b.close()]);
  });

  it("shares one count and one lock between replicas", async () => {
    await Promise.all([a.ready, b.ready]);
    expect(await a.attempt("k", POLICY)).toBe(0);
    expect(await b.attempt("k", POLICY)).toBe(0);
    expect(await a.attempt("k", POLICY)).toBe(0);
    const locked = await b.attempt("k", POLICY);
    expect(locked).toBeGreaterThan(58_000);
    expect(locked).toBeLessThanOrEqual(60_000);
    await a.clear("k");
    expect(await b.attempt("k", POLICY)).toBe(0);
  });
});
