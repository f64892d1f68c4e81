import { describe, expect, it } from "vitest";

import {
  APIConnectionError,
  AuthenticationError,
  InternalServerError,
  LiveEventsError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
} from "@gauntlet/sdk";

import { describeError } from "./describe-error.ts";

const headers = (h: Record<string, string> = {}) => new Headers(h);

describe("errors in one line", () => {
  it("says when to expect a rate-limited request back", () => {
    const error = new RateLimitError({
      status: 429,
      headers: headers({ "retry-after": "7" }),
      body: { detail: { type: "api_rate_limit_exceeded", message: "slow down" } },
      operationId: "listRounds",
    });
    expect(describeError(error, "polling")).toEqual({
      level: "warn",
      text: "polling: rate limited (429, shared budget); retry in 7s",
    });
  });

  it("names the operation and the field of data off the contract", () => {
    const error = new ResponseValidationError({
      operationId: "getDivisionLeaderboard",
      status: 200,
      headers: headers(),
      body: [],
      issues: [{ path: "[0].rank", message: "expected number" }],
    });
    expect(describeError(error).text).toBe(
      "unexpected data from the server (getDivisionLeaderboard at [0].rank)",
    );
  });

  it("tells server errors, refusals and missing objects apart", () => {
    expect(
      describeError(
        new InternalServerError({
          status: 503,
          headers: headers({ "x-request-id": "r1" }),
          body: null,
          operationId: "listRounds",
        }),
      ).text,
    ).toBe("server error 503 (listRounds, request r1)");
    expect(
      describeError(
        new AuthenticationError({
          status: 401,
          headers: headers(),
          body: null,
          operationId: "whoami",
        }),
      ).level,
    ).toBe("error");
    expect(
      describeError(
        new NotFoundError({ status: 404, headers: headers(), body: null, operationId: "getRound" }),
      ).text,
    ).toBe("not found (404, getRound)");
  });

  it("gives the reason a server cannot be reached", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), {
      code: "ECONNREFUSED",
    });
    expect(describeError(new APIConnectionError("fetch failed", { cause: refused })).text).toBe(
      "cannot reach the server (ECONNREFUSED)",
    );
    expect(describeError(new LiveEventsError("live events: bad message")).text).toBe(
      "live events: bad message",
    );
    expect(describeError("plain").text).toBe("plain");
  });
});
