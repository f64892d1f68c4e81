import { createServer } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  budgetHeaders,
  sampleLeague,
  sharedBudgetBody,
  startScriptedServer,
  type ScriptedServer,
} from "../test/scripted-server.ts";
import { createClient } from "./client.ts";
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  InternalServerError,
  isRateLimitError,
  RateLimitError,
} from "./errors.ts";
import { DEFAULT_RETRY, type RetryEvent } from "./options.ts";
import { decideRetry } from "./retry.ts";

const LEAGUE_ID = "league_00000000-0000-4000-8000-000000000001";
const GAME_ID = "game_00000000-0000-4000-8000-000000000001";
let server: ScriptedServer;
// Short backoffs keep the suite fast; the 429 waits are the real Retry-After (1 s).
const fast = { maxRetries: 3, backoffBaseMs: 10, backoffMaxMs: 40, maxJitterMs: 0 };

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function client(extra: Parameters<typeof createClient>[0] = {}) {
  return createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: "t",
    retries: fast,
    ...extra,
  });
}

const failThen =
  (failures: number, fail: () => object, ok: () => object) => (_: unknown, i: number) =>
    i < failures ? fail() : ok();

describe("server errors and lost connections", () => {
  it("retries a GET after 503s with growing backoff, then returns the answer", async () => {
    server.setScript(
      failThen(
        2,
        () => ({ status: 503, json: { detail: { type: "unavailable", message: "x" } } }),
        () => ({ json: sampleLeague() }),
      ),
    );
    const events: RetryEvent[] = [];
    const { data, meta } = await client({ onRetry: (e) => void events.push(e) }).requestWithMeta(
      "getLeague",
      { league_id: LEAGUE_ID },
    );
    expect(data.id).toBe(LEAGUE_ID);
    expect(meta.attempts).toBe(3);
    expect(events.map((e) => [e.attempt, e.reason])).toEqual([
      [1, "server_error"],
      [2, "server_error"],
    ]);
    expect(events[0]?.error).toBeInstanceOf(InternalServerError);
    // Equal jitter: between half and all of 10 ms, then of 20 ms.
    expect(events[0]?.delayMs).toBeGreaterThanOrEqual(5);
    expect(events[0]?.delayMs).toBeLessThanOrEqual(10);
    expect(events[1]?.delayMs).toBeGreaterThanOrEqual(10);
    expect(events[1]?.delayMs).toBeLessThanOrEqual(20);
  });

  it("gives up after maxRetries and throws the last error", async () => {
    server.setScript(() => ({
      status: 500,
      json: { detail: { type: "internal_error", message: "boom" } },
    }));
    await expect(
      client({ retries: { ...fast, maxRetries: 2 } }).leagues.get({ league_id: LEAGUE_ID }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 501, nor any 4xx but 429", async () => {
    server.setScript(() => ({ status: 501, json: { detail: { type: "x", message: "x" } } }));
    await expect(client().leagues.get({ league_id: LEAGUE_ID })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    server.setScript(() => ({ status: 409, json: { detail: { type: "conflict", message: "x" } } }));
    await expect(client().leagues.get({ league_id: LEAGUE_ID })).rejects.toThrow(/409/);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a write without an Idempotency-Key", async () => {
    server.setScript(() => ({ status: 503, json: {} }));
    await expect(
      client().leagues.setRoundsPaused({ league_id: LEAGUE_ID, body: { paused: true } }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("retries a creating write with one Idempotency-Key, the same on every try, and the same payload", async () => {
    server.setScript(
      failThen(
        2,
        () => ({ hangUp: true }),
        () => ({ status: 201, json: sampleLeague() }),
      ),
    );
    await client().leagues.create({ body: { name: "L", game_id: GAME_ID } });
    await client().leagues.create({ body: { name: "L", game_id: GAME_ID } });
    const keys = server.requests.map((r) => r.headers["idempotency-key"]);
    expect(server.requests).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys.slice(0, 3)).size).toBe(1);
    // The next call is another write: another key.
    expect(keys[3]).not.toBe(keys[0]);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
  });

  it("uses the caller's Idempotency-Key, which also makes any write retryable", async () => {
    server.setScript(
      failThen(
        1,
        () => ({ status: 502, json: {} }),
        () => ({ json: sampleLeague() }),
      ),
    );
    await client().leagues.setRoundsPaused(
      { league_id: LEAGUE_ID, body: { paused: true } },
      { idempotencyKey: "my-key" },
    );
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual(["my-key", "my-key"]);
  });

  it("reports a refused connection as APIConnectionError after retrying", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const address = s.address();
        s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const events: RetryEvent[] = [];
    const error = await client({
      baseUrl: `http://127.0.0.1:${port}`,
      onRetry: (e) => void events.push(e),
    })
      .leagues.get({ league_id: LEAGUE_ID })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
    expect(events.map((e) => e.reason)).toEqual(["connection", "connection", "connection"]);
  });

  it("times out a slow try as APITimeoutError, and retries it when the request may be repeated", async () => {
    server.setScript(
      failThen(
        1,
        () => ({ delayMs: 400, json: sampleLeague() }),
        () => ({ json: sampleLeague() }),
      ),
    );
    const events: RetryEvent[] = [];
    const league = await client({ timeout: 100, onRetry: (e) => void events.push(e) }).leagues.get({
      league_id: LEAGUE_ID,
    });
    expect(league.id).toBe(LEAGUE_ID);
    expect(events.map((e) => e.reason)).toEqual(["timeout"]);
    expect(events[0]?.error).toBeInstanceOf(APITimeoutError);
    server.setScript(() => ({ delayMs: 400, json: sampleLeague() }));
    await expect(
      client({ timeout: 100, retries: 0 }).leagues.get({ league_id: LEAGUE_ID }),
    ).rejects.toBeInstanceOf(APITimeoutError);
  });

  it("lets onRetry veto a retry", async () => {
    server.setScript(() => ({ status: 503, json: {} }));
    await expect(
      client({ onRetry: () => false }).leagues.get({ league_id: LEAGUE_ID }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it("stops at once when the caller aborts, also while waiting to retry", async () => {
    server.setScript(() => ({ status: 503, json: {} }));
    const controller = new AbortController();
    // An hour's backoff: only the abort, sent once the wait has begun, can end this call.
    const patient = {
      ...fast,
      backoffBaseMs: 3_600_000,
      backoffMaxMs: 3_600_000,
      deadlineMs: 7_200_000,
    };
    const pending = client({
      retries: patient,
      onRetry: () => void setTimeout(() => controller.abort(), 0),
    }).leagues.get({ league_id: LEAGUE_ID }, { signal: controller.signal });
    await expect(pending).rejects.toThrow(/aborted by the caller while waiting to retry/);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("429 pacing", () => {
  it("waits at least Retry-After after a shared-budget 429, then retries the same request, and records the budget", async () => {
    server.setScript(
      failThen(
        1,
        () => ({ status: 429, json: sharedBudgetBody(1), headers: budgetHeaders("rejected", 1) }),
        () => ({ json: sampleLeague(), headers: budgetHeaders("allowed") }),
      ),
    );
    const events: RetryEvent[] = [];
    const c = client({
      onRetry: (e) => void events.push(e),
      retries: { ...fast, maxJitterMs: 100 },
    });
    // A write without an idempotency key: a refused request never reached its handler, so it is safe.
    await c.leagues.setRoundsPaused({ league_id: LEAGUE_ID, body: { paused: true } });
    const [first, second] = server.requests;
    expect(second && first && second.at - first.at).toBeGreaterThanOrEqual(1_000);
    expect(events).toHaveLength(1);
    expect(events[0]?.reason).toBe("shared_budget");
    expect(events[0]?.delayMs).toBeGreaterThanOrEqual(1_000);
    expect(events[0]?.delayMs).toBeLessThanOrEqual(1_100);
    expect(second?.body).toBe(first?.body);
    expect(c.lastBudget?.outcome).toBe("allowed");
  });

  it("does not retry when the wait would pass the deadline", async () => {
    server.setScript(() => ({
      status: 429,
      json: sharedBudgetBody(30),
      headers: budgetHeaders("rejected", 30),
    }));
    const c = client({ retries: { ...fast, deadlineMs: 5_000 } });
    const error = await c.leagues.get({ league_id: LEAGUE_ID }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(isRateLimitError(error) && error.retryAfterSeconds).toBe(30);
    expect(server.requests).toHaveLength(1);
    expect(c.lastBudget?.outcome).toBe("rejected");
  });

  it("does not retry a 429 of another protection that gives no Retry-After", async () => {
    server.setScript(() => ({
      status: 429,
      json: { detail: { type: "concurrency_limit", message: "x" } },
    }));
    await expect(client().leagues.get({ league_id: LEAGUE_ID })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("never retries a 200, whatever its budget headers say", async () => {
    server.setScript(() => ({
      json: sampleLeague(),
      headers: {
        ...budgetHeaders("allowed"),
        "x-ratelimit-outcome": "would_reject",
        "retry-after": "5",
      },
    }));
    await client().leagues.get({ league_id: LEAGUE_ID });
    expect(server.requests).toHaveLength(1);
  });
});

describe("decideRetry", () => {
  const serverError = (status: number, headers: Record<string, string> = {}) =>
    new InternalServerError({
      status,
      headers: new Headers(headers),
      body: undefined,
      operationId: "x",
    });
  const policy = { ...DEFAULT_RETRY, backoffBaseMs: 100, backoffMaxMs: 1_000 };

  it("doubles the backoff ceiling per try up to the cap, and stops after maxRetries", () => {
    const delays = [1, 2, 3, 4, 5].map((attempt) =>
      decideRetry({
        error: serverError(503),
        attempt,
        elapsedMs: 0,
        policy: { ...policy, maxRetries: 10 },
        replayable: true,
        random: () => 1,
      }),
    );
    expect(delays.map((d) => (d.retry ? d.delayMs : null))).toEqual([100, 200, 400, 800, 1_000]);
    expect(
      decideRetry({
        error: serverError(503),
        attempt: 4,
        elapsedMs: 0,
        policy: { ...policy, maxRetries: 3 },
        replayable: true,
      }).retry,
    ).toBe(false);
  });

  it("waits at least a 503's Retry-After", () => {
    const d = decideRetry({
      error: serverError(503, { "retry-after": "3" }),
      attempt: 1,
      elapsedMs: 0,
      policy,
      replayable: true,
      random: () => 0,
    });
    expect(d).toEqual({ retry: true, delayMs: 3_000, reason: "server_error" });
  });

  it("respects the deadline and whether the request may be repeated", () => {
    expect(
      decideRetry({
        error: serverError(500),
        attempt: 1,
        elapsedMs: policy.deadlineMs - 10,
        policy,
        replayable: true,
        random: () => 1,
      }).retry,
    ).toBe(false);
    expect(
      decideRetry({ error: serverError(500), attempt: 1, elapsedMs: 0, policy, replayable: false })
        .retry,
    ).toBe(false);
    expect(
      decideRetry({
        error: new APIConnectionError("x"),
        attempt: 1,
        elapsedMs: 0,
        policy,
        replayable: true,
      }).retry,
    ).toBe(true);
  });
});
