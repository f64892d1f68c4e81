import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { SERVICE_CAPACITIES, USER_CAPACITIES, type BudgetCapacities } from "./capacities.ts";
import {
  BUDGET_BUCKETS,
  decideBudget,
  isBudgetFull,
  type BudgetBucketName,
  type BudgetState,
} from "./gcra.ts";

const T0 = 1_700_000_000_000; // a whole UTC second, in ms
const T0_S = T0 / 1000;

describe("a fresh user budget", () => {
  it("reports the capacities of docs/architecture.md, remaining after the debit, and a reset one second on", () => {
    const d = decideBudget(undefined, USER_CAPACITIES, 10, T0);
    expect(d.allowed).toBe(true);
    expect(d.retryAfterSeconds).toBe(0);
    expect(d.buckets).toEqual({
      requestsMinute: { limit: 2400, remaining: 2399, resetUnixSeconds: T0_S + 1 },
      requestsHour: { limit: 36000, remaining: 35999, resetUnixSeconds: T0_S + 1 },
      complexityMinute: { limit: 24000, remaining: 23990, resetUnixSeconds: T0_S + 1 },
      complexityHour: { limit: 360000, remaining: 359990, resetUnixSeconds: T0_S + 1 },
    });
  });

  it("is full again when the reset second comes, with no further traffic", () => {
    const d = decideBudget(undefined, USER_CAPACITIES, 1000, T0);
    // complexity-hour: 1000 credits at 100 per second take 10 s to refill.
    expect(d.buckets.complexityHour.resetUnixSeconds).toBe(T0_S + 10);
    expect(isBudgetFull(d.state, T0 + 9_999)).toBe(false);
    expect(isBudgetFull(d.state, T0 + 10_000)).toBe(true);
  });

  it("gives a service the service capacities", () => {
    const d = decideBudget(undefined, SERVICE_CAPACITIES, 50, T0);
    expect(d.buckets.requestsMinute).toEqual({
      limit: 9600,
      remaining: 9599,
      resetUnixSeconds: T0_S + 1,
    });
    expect(d.buckets.complexityHour).toEqual({
      limit: 2_880_000,
      remaining: 2_879_950,
      resetUnixSeconds: T0_S + 1,
    });
  });
});

describe("a burst", () => {
  it("admits exactly the complexity-minute capacity at one instant, then rejects with the wait for one more", () => {
    let state: BudgetState | undefined;
    for (let i = 0; i < 24; i++) {
      const d = decideBudget(state, USER_CAPACITIES, 1000, T0);
      expect(d.allowed).toBe(true);
      state = d.state;
    }
    const rejected = decideBudget(state, USER_CAPACITIES, 1000, T0);
    expect(rejected.allowed).toBe(false);
    expect(rejected.state).toBe(state);
    expect(rejected.buckets.complexityMinute).toEqual({
      limit: 24000,
      remaining: 0,
      resetUnixSeconds: T0_S + 60,
    });
    expect(rejected.buckets.requestsMinute.remaining).toBe(2376);
    // 1000 credits at 400 per second: 2.5 s, rounded up.
    expect(rejected.retryAfterSeconds).toBe(3);
    expect(decideBudget(state, USER_CAPACITIES, 1000, T0 + 2_000).allowed).toBe(false);
    expect(decideBudget(state, USER_CAPACITIES, 1000, T0 + 2_500).allowed).toBe(true);
    // A cheaper request fits sooner.
    expect(decideBudget(state, USER_CAPACITIES, 10, T0 + 25).allowed).toBe(true);
  });

  it("empties the request bucket after 2400 requests of cost 1, and refills 40 per second", () => {
    let state: BudgetState | undefined;
    for (let i = 0; i < 2400; i++) state = decideBudget(state, USER_CAPACITIES, 1, T0).state;
    const rejected = decideBudget(state, USER_CAPACITIES, 1, T0);
    expect(rejected.allowed).toBe(false);
    expect(rejected.retryAfterSeconds).toBe(1);
    expect(rejected.buckets.requestsMinute.remaining).toBe(0);
    // Six seconds later, 240 credits are back (6 s × 40 per second); one is spent now.
    const later = decideBudget(state, USER_CAPACITIES, 1, T0 + 6_000);
    expect(later.allowed).toBe(true);
    expect(later.buckets.requestsMinute.remaining).toBe(239);
  });
});

describe("a cost above a bucket's capacity", () => {
  const tiny: BudgetCapacities = {
    requestsPerMinute: 100,
    requestsPerHour: 1000,
    complexityPerMinute: 20,
    complexityPerHour: 1000,
  };

  it("is charged the whole capacity: admitted on a full bucket, and empties it", () => {
    const first = decideBudget(undefined, tiny, 50, T0);
    expect(first.allowed).toBe(true);
    expect(first.buckets.complexityMinute.remaining).toBe(0);
    expect(first.buckets.complexityHour.remaining).toBe(950);
    const second = decideBudget(first.state, tiny, 50, T0 + 1_000);
    expect(second.allowed).toBe(false);
    // The minute bucket refills in 60 s; then it fits again.
    expect(second.retryAfterSeconds).toBe(59);
    expect(decideBudget(first.state, tiny, 50, T0 + 60_000).allowed).toBe(true);
  });
});

describe("a peek (debit: false)", () => {
  it("gives the numbers of a debit but keeps the state", () => {
    const state = decideBudget(undefined, USER_CAPACITIES, 10, T0).state;
    const peek = decideBudget(state, USER_CAPACITIES, 10, T0, { debit: false });
    const real = decideBudget(state, USER_CAPACITIES, 10, T0);
    expect(peek.state).toBe(state);
    expect(peek.buckets).toEqual(real.buckets);
    expect(peek.allowed).toBe(true);
  });
});

describe("bad input", () => {
  it("refuses a fractional or negative complexity and a zero capacity", () => {
    expect(() => decideBudget(undefined, USER_CAPACITIES, 1.5, T0)).toThrow(RangeError);
    expect(() => decideBudget(undefined, USER_CAPACITIES, -1, T0)).toThrow(RangeError);
    expect(() =>
      decideBudget(undefined, { ...USER_CAPACITIES, requestsPerHour: 0 }, 1, T0),
    ).toThrow(RangeError);
  });
});

// Property tests: small capacities so that buckets empty and refill within a few steps.
const capsArb = fc.record({
  requestsPerMinute: fc.integer({ min: 1, max: 40 }),
  requestsPerHour: fc.integer({ min: 1, max: 400 }),
  complexityPerMinute: fc.integer({ min: 1, max: 200 }),
  complexityPerHour: fc.integer({ min: 1, max: 2000 }),
});
const stepsArb = fc.array(
  fc.record({
    advanceMs: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 2_000 }),
      fc.integer({ min: 0, max: 120_000 }),
    ),
    cost: fc.integer({ min: 0, max: 60 }),
  }),
  { minLength: 1, maxLength: 60 },
);

const CAPACITY_OF: Record<BudgetBucketName, keyof BudgetCapacities> = {
  requestsMinute: "requestsPerMinute",
  requestsHour: "requestsPerHour",
  complexityMinute: "complexityPerMinute",
  complexityHour: "complexityPerHour",
};
const PERIOD_MS: Record<BudgetBucketName, number> = {
  requestsMinute: 60_000,
  requestsHour: 3_600_000,
  complexityMinute: 60_000,
  complexityHour: 3_600_000,
};

describe("properties (fake clock)", () => {
  it("never admits more than capacity + rate × elapsed into any bucket, over any window", () => {
    fc.assert(
      fc.property(capsArb, stepsArb, (caps, steps) => {
        let state: BudgetState | undefined;
        let now = T0;
        const admitted: { at: number; charged: Record<BudgetBucketName, number> }[] = [];
        for (const step of steps) {
          now += step.advanceMs;
          const d = decideBudget(state, caps, step.cost, now);
          if (!d.allowed) continue;
          state = d.state;
          const charge = (name: BudgetBucketName, cost: number) =>
            Math.min(cost, caps[CAPACITY_OF[name]]);
          admitted.push({
            at: now,
            charged: {
              requestsMinute: charge("requestsMinute", 1),
              requestsHour: charge("requestsHour", 1),
              complexityMinute: charge("complexityMinute", step.cost),
              complexityHour: charge("complexityHour", step.cost),
            },
          });
        }
        for (const name of BUDGET_BUCKETS) {
          const capacity = caps[CAPACITY_OF[name]];
          const rate = capacity / PERIOD_MS[name];
          for (let i = 0; i < admitted.length; i++) {
            let total = 0;
            for (let j = i; j < admitted.length; j++) {
              const a = admitted[j];
              const start = admitted[i];
              if (!a || !start) continue;
              total += a.charged[name];
              expect(total).toBeLessThanOrEqual(capacity + rate * (a.at - start.at));
            }
          }
        }
      }),
    );
  });

  it("leaves the state untouched when it rejects, and says exactly which second the same cost fits", () => {
    fc.assert(
      fc.property(capsArb, stepsArb, (caps, steps) => {
        let state: BudgetState | undefined;
        let now = T0;
        for (const step of steps) {
          now += step.advanceMs;
          const d = decideBudget(state, caps, step.cost, now);
          if (d.allowed) {
            expect(d.retryAfterSeconds).toBe(0);
            state = d.state;
            continue;
          }
          expect(d.state).toBe(state ?? d.state);
          expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1);
          expect(
            decideBudget(state, caps, step.cost, now + d.retryAfterSeconds * 1000).allowed,
          ).toBe(true);
          expect(
            decideBudget(state, caps, step.cost, now + (d.retryAfterSeconds - 1) * 1000).allowed,
          ).toBe(false);
        }
      }),
    );
  });

  it("reports remaining credits within [0, limit] and a reset at the first whole second the bucket is full", () => {
    fc.assert(
      fc.property(capsArb, stepsArb, (caps, steps) => {
        let state: BudgetState | undefined;
        let now = T0;
        for (const step of steps) {
          now += step.advanceMs;
          const d = decideBudget(state, caps, step.cost, now);
          if (d.allowed) state = d.state;
          for (const name of BUDGET_BUCKETS) {
            const bucket = d.buckets[name];
            expect(bucket.limit).toBe(caps[CAPACITY_OF[name]]);
            expect(bucket.remaining).toBeGreaterThanOrEqual(0);
            expect(bucket.remaining).toBeLessThanOrEqual(bucket.limit);
            const fullAtUs = Math.max(d.state[name], now * 1000);
            expect(bucket.resetUnixSeconds * 1_000_000).toBeGreaterThanOrEqual(fullAtUs);
            expect((bucket.resetUnixSeconds - 1) * 1_000_000).toBeLessThan(fullAtUs);
          }
        }
      }),
    );
  });
});
