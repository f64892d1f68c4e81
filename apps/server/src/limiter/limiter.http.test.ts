// The shared budgets over real HTTP: each numbered rule of docs/architecture.md, the headers and
// the 429 of docs/api.md, against a running server.
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  advise429,
  bestEffort,
  DEFAULT_PACING,
  RATE_LIMIT_ERROR_TYPE,
  RateLimitErrorBody,
  readBudgetSnapshot,
} from "@gauntlet/core";

import { client, type HttpResult } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestStore } from "../../testing/test-store.ts";

const BUCKET_PREFIXES = [
  "x-ratelimit-requests-minute",
  "x-ratelimit-requests-hour",
  "x-ratelimit-complexity-minute",
  "x-ratelimit-complexity-hour",
];
const BUCKET_HEADERS = BUCKET_PREFIXES.flatMap((p) => [
  `${p}-limit`,
  `${p}-remaining`,
  `${p}-reset`,
]);
// Buckets refill continuously, so counting credits across requests needs buckets that refill
// slowly: an hour bucket of 360 gains one credit per 10 s.
const COUNTING = JSON.stringify({ requestsPerHour: 360, complexityPerHour: 360 });
// Small enough to run out within a test: two requests of complexity 10 fit, a third does not.
// An hour bucket of 25 refills a credit per 144 s, so none comes back while a test runs, however
// busy the machine (a minute bucket, a credit per 2.4 s, could let the third request through).
const SMALL = JSON.stringify({ complexityPerHour: 25, requestsPerHour: 360 });

function budgetHeaderNames(res: HttpResult): string[] {
  return [...res.headers.keys()]
    .filter(
      (name) =>
        name === "x-complexity" || name.startsWith("x-ratelimit-") || name === "retry-after",
    )
    .sort();
}

function remaining(res: HttpResult, prefix: string): number {
  return Number(res.headers.get(`${prefix}-remaining`));
}

const requestsLeft = (res: HttpResult) => remaining(res, "x-ratelimit-requests-hour");
const complexityLeft = (res: HttpResult) => remaining(res, "x-ratelimit-complexity-hour");

async function playersOf(t: TestServer, userId: string): Promise<number> {
  const rows = await t.server.store.db
    .selectFrom("players")
    .select("id")
    .where("owner_user_id", "=", userId)
    .execute();
  return rows.length;
}

let enforced: TestServer;
let counting: TestServer;
let small: TestServer;
let logOnly: TestServer;
let off: TestServer;
let storeDown: TestServer;

beforeAll(async () => {
  // One after another: a server's first start migrates its store.
  enforced = await startTestServer();
  counting = await startTestServer({ env: { GAUNTLET_USER_CAPACITIES: COUNTING } });
  small = await startTestServer({ env: { GAUNTLET_USER_CAPACITIES: SMALL } });
  logOnly = await startTestServer({
    env: { GAUNTLET_RATE_LIMIT_MODE: "log-only", GAUNTLET_USER_CAPACITIES: SMALL },
  });
  off = await startTestServer({ env: { GAUNTLET_RATE_LIMIT_MODE: "off" } });
  // Nothing listens on port 1: the budget store is down from the start.
  storeDown = await startTestServer({ env: { REDIS_URL: "redis://127.0.0.1:1" } });
});

afterAll(async () => {
  for (const t of [enforced, counting, small, logOnly, off, storeDown]) await t?.close();
});

describe("the headers of a fresh budget", () => {
  it("carry the capacities of docs/architecture.md, the credits left after this request, and when each bucket is full again", async () => {
    const user = await enforced.newUser();
    const before = Date.now();
    const res = await client(enforced.url, user.token).get("/whoami");
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-complexity")).toBe("1");
    expect(res.headers.get("x-ratelimit-mode")).toBe("enforced");
    expect(res.headers.get("x-ratelimit-outcome")).toBe("allowed");
    expect(res.headers.get("x-ratelimit-retry-after")).toBe("0");
    expect(res.headers.get("retry-after")).toBeNull();
    const expected: [string, number, number, number][] = [
      // prefix, limit, remaining, ms until full again after 1 credit
      ["x-ratelimit-requests-minute", 2400, 2399, 25],
      ["x-ratelimit-requests-hour", 36000, 35999, 100],
      ["x-ratelimit-complexity-minute", 24000, 23999, 2.5],
      ["x-ratelimit-complexity-hour", 360000, 359999, 10],
    ];
    for (const [prefix, limit, left, refillMs] of expected) {
      expect(res.headers.get(`${prefix}-limit`)).toBe(String(limit));
      expect(res.headers.get(`${prefix}-remaining`)).toBe(String(left));
      const reset = Number(res.headers.get(`${prefix}-reset`));
      expect(reset).toBeGreaterThanOrEqual(Math.ceil((before + refillMs) / 1000));
      expect(reset).toBeLessThanOrEqual(Math.ceil((after + refillMs) / 1000));
    }
    expect(budgetHeaderNames(res)).toEqual(
      [
        "x-complexity",
        "x-ratelimit-mode",
        "x-ratelimit-outcome",
        "x-ratelimit-retry-after",
        ...BUCKET_HEADERS,
      ].sort(),
    );
    // What a client reads back from them.
    expect(readBudgetSnapshot(res.headers)?.buckets.requestsHour).toMatchObject({
      limit: 36000,
      remaining: 35999,
    });
  });

  it("give a machine identity the service capacities, from a budget of its own", async () => {
    const machine = await enforced.machineToken(`budget-${randomUUID().slice(0, 8)}`);
    const res = await client(enforced.url, machine).get("/whoami");
    expect(res.headers.get("x-ratelimit-requests-minute-limit")).toBe("9600");
    expect(res.headers.get("x-ratelimit-requests-minute-remaining")).toBe("9599");
    expect(res.headers.get("x-ratelimit-complexity-hour-limit")).toBe("2880000");
  });
});

describe("the budget rules", () => {
  it("1. every covered request costs one request credit, whatever its complexity", async () => {
    const api = client(counting.url, (await counting.newUser()).token);
    const lefts = [];
    for (const path of ["/whoami", "/players", "/whoami"])
      lefts.push(requestsLeft(await api.get(path)));
    expect(lefts).toEqual([359, 358, 357]);
  });

  it("2. complexity is fixed per operation, in X-Complexity and in the operation's x-rate-limit entry", async () => {
    const api = client(counting.url, (await counting.newUser()).token);
    const doc = await client(counting.url).get<{
      paths: Record<string, Record<string, { "x-rate-limit": { complexity: number } }>>;
    }>("/openapi.json");
    const whoami = await api.get("/whoami");
    const players = await api.get("/players");
    expect(Number(whoami.headers.get("x-complexity"))).toBe(
      doc.body.paths["/whoami"]?.get?.["x-rate-limit"].complexity,
    );
    expect(Number(players.headers.get("x-complexity"))).toBe(
      doc.body.paths["/players"]?.get?.["x-rate-limit"].complexity,
    );
    expect(players.headers.get("x-complexity")).toBe("10");
    expect(complexityLeft(whoami) - complexityLeft(players)).toBe(10);
  });

  it("3. a request must fit all four buckets; a rejection debits none of them", async () => {
    const user = await small.newUser();
    const api = client(small.url, user.token);
    const first = await api.post("/players", { name: "one" });
    const second = await api.post("/players", { name: "two" });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("x-ratelimit-complexity-hour-remaining")).toBe("5");
    // Plenty of request credits left, but not 10 complexity credits.
    const rejected = await api.post("/players", { name: "three" });
    expect(rejected.status).toBe(429);
    expect(requestsLeft(rejected)).toBe(requestsLeft(second));
    expect(rejected.headers.get("x-ratelimit-complexity-hour-remaining")).toBe("5");
    // The rejection took neither a request nor complexity: a cheap request still fits.
    const cheap = await api.get("/whoami");
    expect(cheap.status).toBe(200);
    expect(requestsLeft(cheap)).toBe(requestsLeft(second) - 1);
    expect(cheap.headers.get("x-ratelimit-complexity-hour-remaining")).toBe("4");
  });

  it("4. an admitted request costs its credits even when validation or the handler then fails", async () => {
    const api = client(counting.url, (await counting.newUser()).token);
    const invalid = await api.post("/players", { name: "x", extra: true });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("x-ratelimit-outcome")).toBe("allowed");
    expect(requestsLeft(invalid)).toBe(359);
    expect(complexityLeft(invalid)).toBe(350);
    const missing = await api.get(`/v2/leagues/league_${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-complexity")).toBe("1");
    expect(requestsLeft(missing)).toBe(358);
    expect(complexityLeft(missing)).toBe(349);
  });

  it("5. one budget across endpoints, the user's tokens, and the players they own", async () => {
    const user = await counting.newUser();
    const first = client(counting.url, user.token);
    const created = await first.post<{ token: string }>("/v2/tokens", { name: "second" });
    expect(created.status).toBe(201);
    expect(requestsLeft(created)).toBe(359);
    const second = client(counting.url, created.body.token);
    expect(requestsLeft(await second.get("/whoami"))).toBe(358);
    const player = await second.post<{ id: string }>("/players", { name: "bot" });
    expect(requestsLeft(player)).toBe(357);
    const login = await first.post<{ token: string }>(`/players/${player.body.id}/login`);
    expect(requestsLeft(login)).toBe(356);
    const asPlayer = await client(counting.url, login.body.token).get<{ subject_type: string }>(
      "/whoami",
    );
    expect(asPlayer.body.subject_type).toBe("player");
    expect(requestsLeft(asPlayer)).toBe(355);
  });

  it("6. anonymous requests draw on their address's budget; failed authentication is not budgeted", async () => {
    for (const res of [
      await client(enforced.url).get("/whoami"),
      await client(enforced.url).get("/v2/leagues"),
      await client(enforced.url, "not-a-token").get("/whoami"),
    ]) {
      expect(res.status).toBe(200);
      expect(budgetHeaderNames(res)).toEqual(
        [
          "x-complexity",
          "x-ratelimit-mode",
          "x-ratelimit-outcome",
          "x-ratelimit-retry-after",
          ...BUCKET_HEADERS,
        ].sort(),
      );
      expect(res.headers.get("x-ratelimit-outcome")).toBe("allowed");
    }
    const denied = await client(enforced.url, "not-a-token").get("/players");
    expect(denied.status).toBe(401);
    expect(budgetHeaderNames(denied)).toEqual([]);
  });

  it("7. enforced: over budget is a 429 before the handler, so a rejected write creates nothing", async () => {
    const user = await small.newUser();
    const api = client(small.url, user.token);
    await api.post("/players", { name: "one" });
    await api.post("/players", { name: "two" });
    expect((await api.post("/players", { name: "three" })).status).toBe(429);
    expect(await playersOf(small, user.id)).toBe(2);
  });

  it("7. log-only: over budget is observed as would_reject, and the request is served", async () => {
    const user = await logOnly.newUser();
    const api = client(logOnly.url, user.token);
    await api.post("/players", { name: "one" });
    await api.post("/players", { name: "two" });
    const third = await api.post("/players", { name: "three" });
    expect(third.status).toBe(201);
    expect(third.headers.get("x-ratelimit-mode")).toBe("log-only");
    expect(third.headers.get("x-ratelimit-outcome")).toBe("would_reject");
    expect(Number(third.headers.get("x-ratelimit-retry-after"))).toBeGreaterThanOrEqual(1);
    expect(third.headers.get("retry-after")).toBeNull();
    // A would-reject debits nothing either.
    expect(third.headers.get("x-ratelimit-complexity-hour-remaining")).toBe("5");
    expect(await playersOf(logOnly, user.id)).toBe(3);
  });

  it("8. a budget store that is down fails open: served, with cost and mode but no capacities", async () => {
    const user = await storeDown.newUser();
    const res = await client(storeDown.url, user.token).post("/players", { name: "anyway" });
    expect(res.status).toBe(201);
    expect(budgetHeaderNames(res)).toEqual([
      "x-complexity",
      "x-ratelimit-mode",
      "x-ratelimit-outcome",
    ]);
    expect(res.headers.get("x-ratelimit-outcome")).toBe("unavailable");
    expect(res.headers.get("x-ratelimit-mode")).toBe("enforced");
    expect(res.headers.get("x-complexity")).toBe("10");
  });

  it("with evaluation off, no budget headers at all", async () => {
    const user = await off.newUser();
    const res = await client(off.url, user.token).get("/players");
    expect(res.status).toBe(200);
    expect(budgetHeaderNames(res)).toEqual([]);
  });
});

describe("the 429 of docs/api.md", () => {
  it("is JSON with the stable type, the retry delay in body and headers, and a working documentation link", async () => {
    const user = await small.newUser();
    const api = client(small.url, user.token);
    const before = Date.now();
    await api.post("/players", { name: "one" });
    await api.post("/players", { name: "two" });
    const res = await api.post("/players", { name: "three" });
    const tookSeconds = (Date.now() - before) / 1000;
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = RateLimitErrorBody.parse(res.body);
    expect(body.detail.type).toBe(RATE_LIMIT_ERROR_TYPE);
    // 5 more complexity credits at 25 per hour: 720 s after the first request, less the time since.
    expect(body.detail.retry_after_seconds).toBeGreaterThanOrEqual(Math.floor(720 - tookSeconds));
    expect(body.detail.retry_after_seconds).toBeLessThanOrEqual(720);
    expect(res.headers.get("retry-after")).toBe(String(body.detail.retry_after_seconds));
    expect(res.headers.get("x-ratelimit-retry-after")).toBe(
      String(body.detail.retry_after_seconds),
    );
    expect(res.headers.get("x-ratelimit-mode")).toBe("enforced");
    expect(res.headers.get("x-ratelimit-outcome")).toBe("rejected");
    expect(res.headers.get("x-complexity")).toBe("10");
    expect(budgetHeaderNames(res)).toEqual(
      [
        "retry-after",
        "x-complexity",
        "x-ratelimit-mode",
        "x-ratelimit-outcome",
        "x-ratelimit-retry-after",
        ...BUCKET_HEADERS,
      ].sort(),
    );
    const docs = await client("").get(body.detail.documentation_url, { redirect: "follow" });
    expect(docs.status).toBe(200);
    expect(docs.text).toContain("api_rate_limit_exceeded");
    // A client told to pace itself waits at least Retry-After, when its deadline allows (not the default two minutes).
    const advise = (deadlineMs?: number) =>
      advise429({
        status: res.status,
        headers: res.headers,
        body: res.body,
        attempt: 1,
        elapsedMs: 0,
        random: () => 0,
        ...(deadlineMs ? { policy: { ...DEFAULT_PACING, deadlineMs } } : {}),
      });
    expect(advise(3_600_000)).toEqual({
      retry: true,
      delayMs: body.detail.retry_after_seconds * 1000,
      reason: "shared_budget",
    });
    expect(advise()).toEqual({
      retry: false,
      delayMs: body.detail.retry_after_seconds * 1000,
      reason: "deadline",
    });
  });
});

describe.runIf(process.env.REDIS_URL)("with Redis", () => {
  it("one budget across server replicas", async () => {
    const shared = await createTestStore();
    const env = { REDIS_URL: process.env.REDIS_URL ?? "", GAUNTLET_USER_CAPACITIES: COUNTING };
    const a = await startTestServer({ env, testStore: shared });
    const b = await startTestServer({ env, testStore: shared });
    try {
      for (const t of [a, b]) {
        // Degraded (still 200) until Redis answers: wait for "ready".
        const status = async () =>
          (await client(t.url).get<{ status: string }>("/readyz")).body.status;
        for (let i = 0; i < 50 && (await status()) !== "ready"; i++)
          await new Promise((r) => setTimeout(r, 20));
      }
      const user = await a.newUser();
      const lefts = [];
      for (const t of [a, b, a, b])
        lefts.push(requestsLeft(await client(t.url, user.token).get("/whoami")));
      expect(lefts).toEqual([359, 358, 357, 356]);
    } finally {
      await bestEffort(a.close());
      await bestEffort(b.close());
      await shared.cleanup();
    }
  });
});
