import { describe, expect, it } from "vitest";

import { RATE_LIMIT_ERROR_TYPE } from "../models/errors.ts";
import { advise429, DEFAULT_PACING, isSharedBudgetRejection, type PacingPolicy } from "./pacing.ts";

const sharedBody = {
  detail: {
    type: RATE_LIMIT_ERROR_TYPE,
    message: "Shared budget exceeded",
    retry_after_seconds: 3,
    documentation_url: "https://example.test/docs/rate-limits",
  },
};
const sharedHeaders = {
  "Retry-After": "3",
  "X-RateLimit-Retry-After": "3",
  "X-RateLimit-Outcome": "rejected",
  "X-RateLimit-Mode": "enforced",
};
const policy: PacingPolicy = { maxAttempts: 3, deadlineMs: 10_000, maxJitterMs: 500 };

describe("advise429", () => {
  it("never retries a 200, whatever its budget headers say", () => {
    expect(
      advise429({
        status: 200,
        headers: { ...sharedHeaders, "X-RateLimit-Outcome": "would_reject" },
        body: {},
        attempt: 1,
        elapsedMs: 0,
      }),
    ).toEqual({
      retry: false,
      delayMs: 0,
      reason: "none",
    });
  });

  it("waits Retry-After plus jitter after a shared-budget 429", () => {
    const at = (random: number) =>
      advise429({
        status: 429,
        headers: new Headers(sharedHeaders),
        body: sharedBody,
        attempt: 1,
        elapsedMs: 0,
        policy,
        random: () => random,
      });
    expect(at(0)).toEqual({ retry: true, delayMs: 3000, reason: "shared_budget" });
    expect(at(0.5)).toEqual({ retry: true, delayMs: 3250, reason: "shared_budget" });
    expect(at(0.999).delayMs).toBeLessThanOrEqual(3500);
  });

  it("takes the longest wait the rejection states, and at least one second", () => {
    const advice = advise429({
      status: 429,
      headers: { "Retry-After": "2" },
      body: { detail: { ...sharedBody.detail, retry_after_seconds: 7 } },
      attempt: 1,
      elapsedMs: 0,
      policy,
      random: () => 0,
    });
    expect(advice.delayMs).toBe(7000);
    const bare = advise429({
      status: 429,
      headers: {},
      body: { detail: { type: RATE_LIMIT_ERROR_TYPE } },
      attempt: 1,
      elapsedMs: 0,
      policy,
      random: () => 0,
    });
    expect(bare).toEqual({ retry: true, delayMs: 1000, reason: "shared_budget" });
  });

  it("stops at the attempt bound and at the deadline", () => {
    const base = { status: 429, headers: sharedHeaders, body: sharedBody, policy, random: () => 0 };
    expect(advise429({ ...base, attempt: 2, elapsedMs: 0 }).retry).toBe(true);
    expect(advise429({ ...base, attempt: 3, elapsedMs: 0 })).toEqual({
      retry: false,
      delayMs: 3000,
      reason: "attempts",
    });
    expect(advise429({ ...base, attempt: 1, elapsedMs: 7_000 }).retry).toBe(true);
    expect(advise429({ ...base, attempt: 1, elapsedMs: 7_001 })).toEqual({
      retry: false,
      delayMs: 3000,
      reason: "deadline",
    });
  });

  it("honours a standard Retry-After on another 429, in seconds or as an HTTP date", () => {
    const other = { detail: { type: "concurrency_limit", message: "too many at once" } };
    expect(
      advise429({
        status: 429,
        headers: { "retry-after": "2" },
        body: other,
        attempt: 1,
        elapsedMs: 0,
        policy,
        random: () => 0,
      }),
    ).toEqual({
      retry: true,
      delayMs: 2000,
      reason: "retry_after",
    });
    const served = "Wed, 01 Jan 2025 00:00:00 GMT";
    const later = "Wed, 01 Jan 2025 00:00:05 GMT";
    expect(
      advise429({
        status: 429,
        headers: { "Retry-After": later, Date: served },
        body: other,
        attempt: 1,
        elapsedMs: 0,
        policy,
        random: () => 0,
      }).delayMs,
    ).toBe(5000);
  });

  it("does not retry another 429 without a Retry-After", () => {
    expect(
      advise429({ status: 429, headers: {}, body: "slow down", attempt: 1, elapsedMs: 0 }),
    ).toEqual({ retry: false, delayMs: 0, reason: "none" });
  });

  it("has a default policy with bounded attempts, deadline and jitter", () => {
    expect(DEFAULT_PACING.maxAttempts).toBeGreaterThan(1);
    expect(DEFAULT_PACING.deadlineMs).toBeGreaterThan(0);
    expect(
      advise429({
        status: 429,
        headers: sharedHeaders,
        body: sharedBody,
        attempt: DEFAULT_PACING.maxAttempts,
        elapsedMs: 0,
      }).reason,
    ).toBe("attempts");
  });
});

describe("isSharedBudgetRejection", () => {
  it("recognises the body of docs/api.md by detail.type only", () => {
    expect(isSharedBudgetRejection(sharedBody)).toBe(true);
    expect(isSharedBudgetRejection({ detail: { type: RATE_LIMIT_ERROR_TYPE } })).toBe(true);
    expect(isSharedBudgetRejection({ detail: [{ type: RATE_LIMIT_ERROR_TYPE }] })).toBe(false);
    expect(isSharedBudgetRejection({ detail: { type: "concurrency_limit" } })).toBe(false);
    expect(isSharedBudgetRejection(null)).toBe(false);
    expect(isSharedBudgetRejection("api_rate_limit_exceeded")).toBe(false);
  });
});
