import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  budgetHeaders,
  sharedBudgetBody,
  startScriptedServer,
  type ScriptedServer,
} from "../test/scripted-server.ts";
import { createClient } from "./client.ts";
import * as errors from "./errors.ts";

const LEAGUE_ID = "league_00000000-0000-4000-8000-000000000001";
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

function client() {
  return createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: "t",
    retries: 0,
  });
}

async function errorFor(
  status: number,
  json: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  server.setScript(() => ({ status, json, headers }));
  return client()
    .leagues.get({ league_id: LEAGUE_ID })
    .catch((e: unknown) => e);
}

describe("error classes by status", () => {
  const cases = [
    [400, errors.BadRequestError, errors.isBadRequestError, "bad_request"],
    [401, errors.AuthenticationError, errors.isAuthenticationError, "unauthorized"],
    [403, errors.PermissionDeniedError, errors.isPermissionDeniedError, "forbidden"],
    [404, errors.NotFoundError, errors.isNotFoundError, "not_found"],
    [409, errors.ConflictError, errors.isConflictError, "wiki_edit_conflict"],
    [500, errors.InternalServerError, errors.isInternalServerError, "internal_error"],
    [418, errors.APIError, errors.isAPIError, "teapot"],
  ] as const;
  for (const [status, Class, guard, type] of cases) {
    it(`${status} → ${Class.name}, with status, body, headers, request id and detail type`, async () => {
      const body = { detail: { type, message: "went wrong" } };
      const error = await errorFor(status, body, { "x-request-id": `req-${status}` });
      expect(error).toBeInstanceOf(Class);
      expect(guard(error)).toBe(true);
      expect(errors.isAPIError(error)).toBe(true);
      expect(errors.isGauntletError(error)).toBe(true);
      if (!errors.isAPIError(error)) return;
      expect(error.status).toBe(status);
      expect(error.body).toEqual(body);
      expect(error.requestId).toBe(`req-${status}`);
      expect(error.errorType).toBe(type);
      expect(error.headers.get("content-type")).toBe("application/json");
      expect(error.name).toBe(Class.name);
      expect(error.message).toBe(`${status} ${type}: went wrong (getLeague)`);
    });
  }

  it("422 → UnprocessableEntityError with the items of docs/api.md", async () => {
    const detail = [
      {
        loc: ["path", "league_id"],
        msg: "String should match pattern",
        type: "string_pattern_mismatch",
        input: "nope",
      },
      { loc: ["body", "name"], msg: "Field required", type: "missing" },
    ];
    const error = await errorFor(422, { detail });
    expect(error).toBeInstanceOf(errors.UnprocessableEntityError);
    if (!errors.isUnprocessableEntityError(error)) return;
    expect(error.errors).toEqual(detail);
    expect(error.message).toBe(
      "422 validation error at path.league_id: String should match pattern (and 1 more) (getLeague)",
    );
  });

  it("429 → RateLimitError with Retry-After, the budget snapshot and whether it was the shared budget", async () => {
    const error = await errorFor(429, sharedBudgetBody(7), budgetHeaders("rejected", 7));
    expect(error).toBeInstanceOf(errors.RateLimitError);
    if (!errors.isRateLimitError(error)) return;
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.sharedBudget).toBe(true);
    expect(error.budget?.outcome).toBe("rejected");
    expect(error.budget?.buckets.complexityHour).toEqual({
      limit: 100,
      remaining: 0,
      resetUnixSeconds: 1767225600,
    });
    const other = await errorFor(429, {
      detail: { type: "too_many_concurrent", message: "slow down" },
    });
    expect(errors.isRateLimitError(other) && other.sharedBudget).toBe(false);
    expect(errors.isRateLimitError(other) && other.retryAfterSeconds).toBeNull();
  });

  it("keeps a body that is not JSON as text", async () => {
    server.setScript(() => ({ status: 502, text: "Bad Gateway" }));
    const error = await client()
      .leagues.get({ league_id: LEAGUE_ID })
      .catch((e: unknown) => e);
    expect(errors.isInternalServerError(error) && error.body).toBe("Bad Gateway");
  });
});

describe("guards", () => {
  it("narrow without swallowing siblings: a NotFoundError is no ConflictError", () => {
    const e = new errors.NotFoundError({
      status: 404,
      headers: new Headers(),
      body: undefined,
      operationId: "x",
    });
    expect(errors.isConflictError(e)).toBe(false);
    expect(e instanceof errors.ConflictError).toBe(false);
    expect(errors.isAPIConnectionError(e)).toBe(false);
    const t = new errors.APITimeoutError("slow");
    expect(errors.isAPIConnectionError(t)).toBe(true);
    expect(t instanceof errors.APIConnectionError).toBe(true);
    expect(errors.isAPIError(t)).toBe(false);
    expect(errors.isGauntletError(new Error("plain"))).toBe(false);
    expect(errors.isGauntletError(null)).toBe(false);
  });

  it("hold across two copies of the package", async () => {
    // A second module instance: what a program gets when two copies of the SDK are installed.
    const specifier = "./errors.ts?second-copy";
    const copy = (await import(specifier)) as typeof errors;
    expect(copy.NotFoundError).not.toBe(errors.NotFoundError);
    const fromCopy = new copy.NotFoundError({
      status: 404,
      headers: new Headers(),
      body: undefined,
      operationId: "x",
    });
    expect(errors.isNotFoundError(fromCopy)).toBe(true);
    expect(errors.isAPIError(fromCopy)).toBe(true);
    expect(fromCopy instanceof errors.NotFoundError).toBe(true);
    expect(fromCopy instanceof errors.GauntletError).toBe(true);
    expect(fromCopy instanceof errors.ConflictError).toBe(false);
    expect(
      copy.isRateLimitError(
        new errors.RateLimitError({
          status: 429,
          headers: new Headers(),
          body: undefined,
          operationId: "x",
        }),
      ),
    ).toBe(true);
  });
});
