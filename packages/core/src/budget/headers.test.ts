import { describe, expect, it } from "vitest";

import { USER_CAPACITIES } from "./capacities.ts";
import { decideBudget, type BudgetState } from "./gcra.ts";
import { BUDGET_HEADER_NAMES, budgetHeaders, readBudgetSnapshot } from "./headers.ts";

const T0 = 1_700_000_000_000;
const T0_S = T0 / 1000;

function exhausted(): BudgetState {
  let state: BudgetState | undefined;
  for (let i = 0; i < 24; i++) state = decideBudget(state, USER_CAPACITIES, 1000, T0).state;
  if (!state) throw new Error("no state");
  return state;
}

describe("budgetHeaders", () => {
  it("writes every header of docs/architecture.md for an allowed request, without Retry-After", () => {
    const d = decideBudget(undefined, USER_CAPACITIES, 10, T0);
    expect(budgetHeaders(d, { mode: "enforced", outcome: "allowed", complexity: 10 })).toEqual({
      "X-Complexity": "10",
      "X-RateLimit-Mode": "enforced",
      "X-RateLimit-Outcome": "allowed",
      "X-RateLimit-Retry-After": "0",
      "X-RateLimit-Requests-Minute-Limit": "2400",
      "X-RateLimit-Requests-Minute-Remaining": "2399",
      "X-RateLimit-Requests-Minute-Reset": String(T0_S + 1),
      "X-RateLimit-Requests-Hour-Limit": "36000",
      "X-RateLimit-Requests-Hour-Remaining": "35999",
      "X-RateLimit-Requests-Hour-Reset": String(T0_S + 1),
      "X-RateLimit-Complexity-Minute-Limit": "24000",
      "X-RateLimit-Complexity-Minute-Remaining": "23990",
      "X-RateLimit-Complexity-Minute-Reset": String(T0_S + 1),
      "X-RateLimit-Complexity-Hour-Limit": "360000",
      "X-RateLimit-Complexity-Hour-Remaining": "359990",
      "X-RateLimit-Complexity-Hour-Reset": String(T0_S + 1),
    });
  });

  it("adds a Retry-After equal to X-RateLimit-Retry-After on an enforced rejection", () => {
    const d = decideBudget(exhausted(), USER_CAPACITIES, 1000, T0);
    const headers = budgetHeaders(d, { mode: "enforced", outcome: "rejected", complexity: 1000 });
    expect(headers["Retry-After"]).toBe("3");
    expect(headers["X-RateLimit-Retry-After"]).toBe("3");
    expect(headers["X-RateLimit-Complexity-Minute-Remaining"]).toBe("0");
  });

  it("gives a log-only would-reject its retry delay but no Retry-After", () => {
    const d = decideBudget(exhausted(), USER_CAPACITIES, 1000, T0);
    const headers = budgetHeaders(d, {
      mode: "log-only",
      outcome: "would_reject",
      complexity: 1000,
    });
    expect(headers["X-RateLimit-Outcome"]).toBe("would_reject");
    expect(headers["X-RateLimit-Retry-After"]).toBe("3");
    expect(headers).not.toHaveProperty("Retry-After");
  });

  it("sends only cost, mode and outcome when the store is unavailable", () => {
    expect(
      budgetHeaders(null, { mode: "enforced", outcome: "unavailable", complexity: 50 }),
    ).toEqual({
      "X-Complexity": "50",
      "X-RateLimit-Mode": "enforced",
      "X-RateLimit-Outcome": "unavailable",
    });
  });

  it("lists all 17 header names for CORS", () => {
    expect(BUDGET_HEADER_NAMES).toHaveLength(17);
  });
});

describe("readBudgetSnapshot", () => {
  it("reads back what budgetHeaders wrote, from fetch Headers and from lower-cased Node headers", () => {
    const d = decideBudget(exhausted(), USER_CAPACITIES, 1000, T0);
    const written = budgetHeaders(d, { mode: "enforced", outcome: "rejected", complexity: 1000 });
    const expected = {
      mode: "enforced",
      outcome: "rejected",
      complexity: 1000,
      retryAfterSeconds: 3,
      buckets: d.buckets,
    };
    expect(readBudgetSnapshot(new Headers(written))).toEqual(expected);
    const lower = Object.fromEntries(
      Object.entries(written).map(([k, v]) => [k.toLowerCase(), [v]]),
    );
    expect(readBudgetSnapshot(lower)).toEqual(expected);
  });

  it("gives null buckets and retry delay for an unavailable store", () => {
    const written = budgetHeaders(null, {
      mode: "log-only",
      outcome: "unavailable",
      complexity: 10,
    });
    expect(readBudgetSnapshot(written)).toEqual({
      mode: "log-only",
      outcome: "unavailable",
      complexity: 10,
      retryAfterSeconds: null,
      buckets: {
        requestsMinute: null,
        requestsHour: null,
        complexityMinute: null,
        complexityHour: null,
      },
    });
  });

  it("is null for a response without budget headers (anonymous, or mode off)", () => {
    expect(readBudgetSnapshot(new Headers({ "content-type": "application/json" }))).toBeNull();
    expect(
      readBudgetSnapshot({ "x-ratelimit-mode": "sometimes", "x-ratelimit-outcome": "allowed" }),
    ).toBeNull();
  });
});
