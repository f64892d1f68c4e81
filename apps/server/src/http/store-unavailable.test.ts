import { describe, expect, it } from "vitest";

import { isStoreConflict, isStoreUnavailable } from "./store-unavailable.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isStoreUnavailable", () => {
  it("recognises a database that is down, restarting or refusing connections", () => {
    expect(
      isStoreUnavailable(withCode("terminating connection due to administrator command", "57P01")),
    ).toBe(true);
    expect(isStoreUnavailable(withCode("the database system is starting up", "57P03"))).toBe(true);
    expect(
      isStoreUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")),
    ).toBe(true);
    expect(isStoreUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isStoreUnavailable(new AggregateError([withCode("refused", "ECONNREFUSED")], "all failed")),
    ).toBe(true);
    expect(
      isStoreUnavailable(new Error("query failed", { cause: withCode("reset", "ECONNRESET") })),
    ).toBe(true);
  });

  it("leaves other errors alone (they stay 500s, logged)", () => {
    expect(
      isStoreUnavailable(withCode('duplicate key value violates unique constraint "x"', "23505")),
    ).toBe(false);
    expect(isStoreUnavailable(new TypeError("undefined is not a function"))).toBe(false);
    expect(isStoreUnavailable("not an error")).toBe(false);
  });
});

describe("isStoreConflict", () => {
  it("recognises a transaction PostgreSQL aborted for a concurrent one (answered 503, retry)", () => {
    expect(isStoreConflict(withCode("deadlock detected", "40P01"))).toBe(true);
    expect(isStoreConflict(withCode("could not serialize access", "40001"))).toBe(true);
    expect(isStoreConflict(withCode("duplicate key value", "23505"))).toBe(false);
    expect(isStoreConflict("40P01")).toBe(false);
  });
});
