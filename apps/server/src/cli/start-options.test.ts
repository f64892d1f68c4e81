import { describe, expect, it } from "vitest";

import { runnerLogLevel, startLogLevel } from "./start.ts";

describe("how much `start` logs", () => {
  it("is quiet by default, says more with --verbose, and follows GAUNTLET_LOG_LEVEL or LOG_LEVEL", () => {
    expect(startLogLevel(false, {})).toBe("warn");
    expect(startLogLevel(true, {})).toBe("info");
    expect(startLogLevel(false, { LOG_LEVEL: "debug" })).toBe("debug");
    expect(startLogLevel(false, { GAUNTLET_LOG_LEVEL: "error", LOG_LEVEL: "debug" })).toBe("error");
    expect(startLogLevel(true, { GAUNTLET_LOG_LEVEL: "warn" })).toBe("info");
    expect(startLogLevel(true, { LOG_LEVEL: "trace" })).toBe("trace");
  });

  it("gives the embedded runner the matching level, never one that hides errors", () => {
    expect(runnerLogLevel("warn")).toBe("warn");
    expect(runnerLogLevel("info")).toBe("info");
    expect(runnerLogLevel("trace")).toBe("debug");
    expect(runnerLogLevel("silent")).toBe("error");
    expect(runnerLogLevel("fatal")).toBe("error");
  });
});
