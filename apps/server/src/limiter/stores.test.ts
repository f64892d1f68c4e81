// The same vectors against every store: each must give exactly the numbers of core's pure
// decision, step by step, including the all-or-none debit of docs/architecture.md.
import { randomUUID } from "node:crypto";

import fc from "fast-check";
import { createClient } from "redis";
import { afterAll, describe, expect, it } from "vitest";

import {
  decideBudget,
  toMicros,
  USER_CAPACITIES,
  type BudgetCapacities,
  type BudgetDecision,
  type BudgetState,
} from "@gauntlet/core";

import { MemoryBudgetStore } from "./memory-store.ts";
import { RedisBudgetStore } from "./redis-store.ts";
import type { BudgetStore } from "./store.ts";

const T0 = 1_700_000_000_000;
const T0_S = T0 / 1000;
const REDIS_URL = process.env.REDIS_URL;

interface FakeClock {
  now: number;
  read: () => number;
}
function fakeClock(): FakeClock {
  const clock: FakeClock = { now: T0, read: () => clock.now };
  return clock;
}

type StoreFactory = (clock: () => number) => Promise<BudgetStore>;

const prefixes: string[] = [];
const redisFactory: StoreFactory = async (clock) => {
  const keyPrefix = `test:budget:${randomUUID()}:`;
  prefixes.push(keyPrefix);
  const store = new RedisBudgetStore({ url: REDIS_URL ?? "", keyPrefix, clock });
  await store.ready;
  return store;
};

afterAll(async () => {
  if (!REDIS_URL || prefixes.length === 0) return;
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  for (const prefix of prefixes) {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(keys);
  }
  await client.close();
});

function comparable(decision: BudgetDecision, nowMs: number) {
  const nowUs = toMicros(nowMs);
  const past = (tat: number) => (tat <= nowUs ? 0 : tat);
  const { state } = decision;
  return {
    ...decision,
    state: {
      requestsMinute: past(state.requestsMinute),
      requestsHour: past(state.requestsHour),
      complexityMinute: past(state.complexityMinute),
      complexityHour: past(state.complexityHour),
    },
  };
}

const tiny: BudgetCapacities = {
  requestsPerMinute: 5,
  requestsPerHour: 20,
  complexityPerMinute: 30,
  complexityPerHour: 100,
};

function storeContract(name: string, make: StoreFactory) {
  describe(`${name} store`, () => {
    it("reports a fresh user budget exactly", async () => {
      const clock = fakeClock();
      const store = await make(clock.read);
      try {
        const d = await store.decide("alice", USER_CAPACITIES, 10, true);
        expect(d.allowed).toBe(true);
        expect(d.retryAfterSeconds).toBe(0);
        expect(d.buckets).toEqual({
          requestsMinute: { limit: 2400, remaining: 2399, resetUnixSeconds: T0_S + 1 },
          requestsHour: { limit: 36000, remaining: 35999, resetUnixSeconds: T0_S + 1 },
          complexityMinute: { limit: 24000, remaining: 23990, resetUnixSeconds: T0_S + 1 },
          complexityHour: { limit: 360000, remaining: 359990, resetUnixSeconds: T0_S + 1 },
        });
      } finally {
        await store.close();
      }
    });

    it("rejects a request that fits the request buckets but not complexity, and debits none of the four", async () => {
      const clock = fakeClock();
      const store = await make(clock.read);
      try {
        expect((await store.decide("bob", tiny, 25, true)).allowed).toBe(true);
        const rejected = await store.decide("bob", tiny, 10, true);
        expect(rejected.allowed).toBe(false);
        // 5 more credits are needed at 0.5 per second: 10 s.
        expect(rejected.retryAfterSeconds).toBe(10);
        expect(rejected.buckets.requestsMinute.remaining).toBe(4);
        const after = await store.decide("bob", tiny, 5, true);
        expect(after.allowed).toBe(true);
        expect(after.buckets.requestsMinute.remaining).toBe(3);
        expect(after.buckets.complexityMinute.remaining).toBe(0);
        clock.now += 10_000;
        expect((await store.decide("bob", tiny, 5, true)).allowed).toBe(true);
      } finally {
        await store.close();
      }
    });

    it("keeps identities apart, and a peek debits nothing", async () => {
      const clock = fakeClock();
      const store = await make(clock.read);
      try {
        for (let i = 0; i < 5; i++)
          expect((await store.decide("carol", tiny, 1, true)).allowed).toBe(true);
        expect((await store.decide("carol", tiny, 1, true)).allowed).toBe(false);
        expect((await store.decide("dave", tiny, 1, false)).buckets.requestsMinute.remaining).toBe(
          4,
        );
        expect((await store.decide("dave", tiny, 1, true)).buckets.requestsMinute.remaining).toBe(
          4,
        );
      } finally {
        await store.close();
      }
    });

    it("matches the pure decision on random traffic, number for number", async () => {
      const capsArb = fc.record({
        requestsPerMinute: fc.integer({ min: 1, max: 30 }),
        requestsPerHour: fc.integer({ min: 1, max: 300 }),
        complexityPerMinute: fc.integer({ min: 1, max: 200 }),
        complexityPerHour: fc.integer({ min: 1, max: 3000 }),
      });
      const stepArb = fc.record({
        advanceMs: fc.oneof(
          fc.constant(0),
          fc.integer({ min: 0, max: 3_000 }),
          fc.integer({ min: 0, max: 90_000 }),
        ),
        key: fc.constantFrom("a", "b"),
        cost: fc.integer({ min: 0, max: 80 }),
        debit: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(
          capsArb,
          fc.array(stepArb, { minLength: 1, maxLength: 25 }),
          async (caps, steps) => {
            const clock = fakeClock();
            const store = await make(clock.read);
            const model = new Map<string, BudgetState>();
            try {
              for (const step of steps) {
                clock.now += step.advanceMs;
                const expected = decideBudget(model.get(step.key), caps, step.cost, clock.now, {
                  debit: step.debit,
                });
                const actual = await store.decide(step.key, caps, step.cost, step.debit);
                // A bucket whose TAT has passed is full, like one never used: stores may forget it.
                expect(comparable(actual, clock.now)).toEqual(comparable(expected, clock.now));
                if (expected.allowed && step.debit) model.set(step.key, expected.state);
              }
            } finally {
              await store.close();
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  });
}

storeContract("memory", (clock) => Promise.resolve(new MemoryBudgetStore({ clock })));

describe.runIf(REDIS_URL)("with Redis", () => {
  storeContract("Redis", redisFactory);
});
