import { describe, expect, it } from "vitest";

import { budgetsInfoFromEnv, createLimiterFromEnv, limiterModeFromEnv } from "./config.ts";

const DOCS = "/docs/rate-limits";
const alice = { budgetKey: "user_alice", kind: "user" as const };

describe("createLimiterFromEnv", () => {
  it("enforces docs/architecture.md capacities in memory by default", async () => {
    const limiter = createLimiterFromEnv({}, DOCS);
    try {
      expect(limiter.mode).toBe("enforced");
      expect(limiter.readiness).toBeUndefined();
      const result = await limiter.evaluate(alice, 10);
      expect(result.outcome).toBe("allowed");
      expect(result.headers["X-RateLimit-Requests-Minute-Limit"]).toBe("2400");
    } finally {
      await limiter.close();
    }
  });

  it("reads the mode, the kinds' capacities and per-identity overrides", async () => {
    const limiter = createLimiterFromEnv(
      {
        GAUNTLET_RATE_LIMIT_MODE: "log-only",
        GAUNTLET_USER_CAPACITIES: '{"requestsPerMinute": 600}',
        GAUNTLET_MACHINE_CAPACITIES: '{"complexityPerHour": 5}',
        GAUNTLET_BUDGET_OVERRIDES: '{"user_alice": {"requestsPerMinute": 1}}',
      },
      DOCS,
    );
    try {
      expect(
        (await limiter.evaluate({ budgetKey: "user_bob", kind: "user" }, 1)).headers[
          "X-RateLimit-Requests-Minute-Limit"
        ],
      ).toBe("600");
      expect(
        (await limiter.evaluate({ budgetKey: "m", kind: "machine" }, 1)).headers[
          "X-RateLimit-Complexity-Hour-Limit"
        ],
      ).toBe("5");
      await limiter.evaluate(alice, 1);
      expect((await limiter.evaluate(alice, 1)).outcome).toBe("would_reject");
    } finally {
      await limiter.close();
    }
  });

  it("turns evaluation off", async () => {
    const limiter = createLimiterFromEnv({ GAUNTLET_RATE_LIMIT_MODE: "off" }, DOCS);
    expect(await limiter.evaluate(alice, 10)).toEqual({ outcome: "off", headers: {}, lines: "" });
    await limiter.close();
  });

  it("uses Redis when REDIS_URL is set, and offers a readiness check", async () => {
    const limiter = createLimiterFromEnv({ REDIS_URL: "redis://127.0.0.1:1" }, DOCS);
    try {
      expect(limiter.readiness?.name).toBe("budgets");
      await expect(limiter.readiness?.check()).rejects.toThrow();
      expect((await limiter.evaluate(alice, 10)).outcome).toBe("unavailable");
    } finally {
      await limiter.close();
    }
  });

  it("names the variable that is wrong", () => {
    expect(() => limiterModeFromEnv({ GAUNTLET_RATE_LIMIT_MODE: "strict" })).toThrow(
      /GAUNTLET_RATE_LIMIT_MODE/,
    );
    expect(() =>
      createLimiterFromEnv({ GAUNTLET_USER_CAPACITIES: "{requestsPerMinute: 1}" }, DOCS),
    ).toThrow(/GAUNTLET_USER_CAPACITIES is not valid JSON/);
    expect(() =>
      createLimiterFromEnv({ GAUNTLET_MACHINE_CAPACITIES: '{"requestsPerMinute": 0}' }, DOCS),
    ).toThrow(/GAUNTLET_MACHINE_CAPACITIES is invalid/);
    expect(() =>
      createLimiterFromEnv({ GAUNTLET_BUDGET_OVERRIDES: '{"x": {"requestsPerDay": 5}}' }, DOCS),
    ).toThrow(/GAUNTLET_BUDGET_OVERRIDES is invalid/);
  });

  it("describes the capacities in force for the budgets page", () => {
    expect(
      budgetsInfoFromEnv({
        GAUNTLET_USER_CAPACITIES: '{"requestsPerMinute": 600}',
        GAUNTLET_ANONYMOUS_CAPACITIES: '{"complexityPerMinute": 3000}',
      }),
    ).toEqual({
      mode: "enforced",
      rows: [
        {
          identity: "User and owned players",
          requestsPerMinute: 600,
          requestsPerHour: 36000,
          complexityPerMinute: 24000,
          complexityPerHour: 360000,
        },
        {
          identity: "Service (machine identity)",
          requestsPerMinute: 9600,
          requestsPerHour: 288000,
          complexityPerMinute: 96000,
          complexityPerHour: 2880000,
        },
        {
          identity: "Anonymous, per client address",
          requestsPerMinute: 1200,
          requestsPerHour: 18000,
          complexityPerMinute: 3000,
          complexityPerHour: 180000,
        },
      ],
    });
  });
});
