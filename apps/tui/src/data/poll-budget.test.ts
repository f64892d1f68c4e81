import { describe, expect, it } from "vitest";

import type { BudgetSnapshot } from "@gauntlet/core";

import { pollIntervalMs } from "./poll-budget.ts";

const NOW = 1_700_000_000_000;

function snapshot(
  limits: { rpm: number; rph: number; cpm: number; cph: number },
  remaining = 1,
  overrides: Partial<BudgetSnapshot> = {},
): BudgetSnapshot {
  const bucket = (limit: number) => ({
    limit,
    remaining: Math.floor(limit * remaining),
    resetUnixSeconds: NOW / 1000 + 30,
  });
  return {
    mode: "enforced",
    outcome: "allowed",
    complexity: 10,
    retryAfterSeconds: 0,
    buckets: {
      requestsMinute: bucket(limits.rpm),
      requestsHour: bucket(limits.rph),
      complexityMinute: bucket(limits.cpm),
      complexityHour: bucket(limits.cph),
    },
    ...overrides,
  };
}

const USER = { rpm: 2400, rph: 36_000, cpm: 24_000, cph: 360_000 };
const cost = { requests: 4, complexity: 31 };

describe("polling pace from the budget headers", () => {
  it("uses a tenth of a user's budget: the hour of requests is the tightest", () => {
    // 3 600 000 ms · 4 / (0.1 · 36 000) = 4 000 ms.
    expect(pollIntervalMs(snapshot(USER), cost, {}, NOW)).toBe(4000);
  });

  it("goes slower for a smaller budget and a smaller share", () => {
    const small = { rpm: 60, rph: 600, cpm: 600, cph: 6000 };
    expect(pollIntervalMs(snapshot(small), cost, { share: 0.5 }, NOW)).toBe(48_000);
    expect(pollIntervalMs(snapshot(USER), cost, { share: 0.05 }, NOW)).toBe(8000);
  });

  it("never polls faster than the floor or slower than the ceiling", () => {
    const huge = { rpm: 1e9, rph: 1e9, cpm: 1e9, cph: 1e9 };
    expect(pollIntervalMs(snapshot(huge), cost, {}, NOW)).toBe(2000);
    expect(pollIntervalMs(snapshot({ rpm: 1, rph: 1, cpm: 1, cph: 1 }), cost, {}, NOW)).toBe(
      60_000,
    );
  });

  it("waits for a nearly spent bucket to refill, and for a rejection's retry-after", () => {
    expect(pollIntervalMs(snapshot(USER, 0), cost, {}, NOW)).toBe(30_000);
    expect(
      pollIntervalMs(
        snapshot(USER, 1, { outcome: "rejected", retryAfterSeconds: 12 }),
        cost,
        {},
        NOW,
      ),
    ).toBe(12_000);
  });

  it("keeps a modest fixed pace when no budget headers were seen", () => {
    expect(pollIntervalMs(null, cost, {}, NOW)).toBe(5000);
    expect(pollIntervalMs(null, cost, { unknownMs: 9000 }, NOW)).toBe(9000);
    const noBuckets = {
      ...snapshot(USER),
      buckets: {
        requestsMinute: null,
        requestsHour: null,
        complexityMinute: null,
        complexityHour: null,
      },
    };
    expect(pollIntervalMs(noBuckets, cost, {}, NOW)).toBe(5000);
  });
});
