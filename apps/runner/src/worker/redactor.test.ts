import { describe, expect, it } from "vitest";

import { createLog } from "./log.ts";
import { REDACTED, Redactor } from "./redactor.ts";

describe("Redactor", () => {
  it("replaces held values, longest first, until the last holder lets go", () => {
    const redactor = new Redactor();
    const first = redactor.hold(["hunter2-long", "hunter2-long-and-longer"]);
    const second = redactor.hold(["hunter2-long"]);
    expect(redactor.redact("a hunter2-long-and-longer b hunter2-long")).toBe(
      `a ${REDACTED} b ${REDACTED}`,
    );
    first();
    expect(redactor.redact("hunter2-long hunter2-long-and-longer")).toBe(
      `${REDACTED} ${REDACTED}-and-longer`,
    );
    second();
    second();
    expect(redactor.redact("hunter2-long")).toBe("hunter2-long");
  });

  it("leaves values too short to be told from ordinary text alone", () => {
    const redactor = new Redactor();
    redactor.hold(["on", "abc"]);
    expect(redactor.redact("on abc")).toBe("on abc");
  });
});

describe("the runner's log", () => {
  it("redacts the message and every string field, as text and as JSON", () => {
    const redactor = new Redactor();
    redactor.hold(["s3cr3t-value"]);
    const lines: string[] = [];
    const now = () => new Date("2026-01-01T00:00:00Z");
    createLog({ format: "text", redactor, write: (l) => lines.push(l), now }).warn(
      "saw s3cr3t-value",
      { error: "x s3cr3t-value y", n: 3 },
    );
    createLog({ format: "json", redactor, write: (l) => lines.push(l), now }).info("ok", {
      error: 's3cr3t-value"',
    });
    expect(lines[0]).toBe(
      `2026-01-01T00:00:00.000Z warn  saw ${REDACTED} error="x ${REDACTED} y" n=3\n`,
    );
    expect(JSON.parse(lines[1] ?? "")).toEqual({
      time: "2026-01-01T00:00:00.000Z",
      level: "info",
      msg: "ok",
      error: `${REDACTED}"`,
    });
  });
});
