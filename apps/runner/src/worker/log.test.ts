import { describe, expect, it } from "vitest";

import { createLog } from "./log.ts";
import { Redactor } from "./redactor.ts";

const now = () => new Date("2026-01-02T03:04:05.000Z");

function linesAt(level?: "debug" | "info" | "warn" | "error"): string[] {
  const lines: string[] = [];
  const log = createLog({
    format: "text",
    redactor: new Redactor(),
    write: (l) => lines.push(l.trim()),
    now,
    ...(level ? { level } : {}),
  });
  log.debug("started", { runnable: "game" });
  log.info("job completed", { job: "j1" });
  log.warn("heartbeat failed");
  log.error("job failed on the runner");
  return lines;
}

describe("the runner's log level", () => {
  it("writes one line per job by default, and each runnable's start and exit only at debug", () => {
    expect(linesAt()).toEqual([
      "2026-01-02T03:04:05.000Z info  job completed job=j1",
      "2026-01-02T03:04:05.000Z warn  heartbeat failed",
      "2026-01-02T03:04:05.000Z error job failed on the runner",
    ]);
    expect(linesAt("debug")[0]).toBe("2026-01-02T03:04:05.000Z debug started runnable=game");
  });

  it("always writes errors, and warnings unless only errors are asked for", () => {
    expect(linesAt("warn").map((l) => l.split(" ")[1])).toEqual(["warn", "error"]);
    expect(linesAt("error").map((l) => l.split(" ")[1])).toEqual(["error"]);
  });
});
