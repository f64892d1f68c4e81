import { Writable } from "node:stream";

import Fastify from "fastify";
import { describe, expect, it } from "vitest";

import { createLazyChildLogger } from "./lazy-child-logger.ts";

function capture(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe("the per-request logger", () => {
  it("writes lines bound to the request id, at the parent's level", async () => {
    const { lines, stream } = capture();
    const parent = Fastify({ logger: { level: "warn", stream } }).log;
    const log = createLazyChildLogger(parent, { reqId: "req-1" });
    expect(log.level).toBe("warn");
    log.info("quiet");
    log.warn({ route: "/x" }, "loud");
    log.error(new Error("boom"), "failed");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ["loud", "req-1"],
      ["failed", "req-1"],
    ]);
    expect(lines[0]?.route).toBe("/x");
    expect((lines[1]?.err as { message: string }).message).toBe("boom");
  });

  it("makes its own children, and a level set on it applies to it alone", async () => {
    const { lines, stream } = capture();
    const parent = Fastify({ logger: { level: "info", stream } }).log;
    const log = createLazyChildLogger(parent, { reqId: "req-2" });
    log.level = "error";
    log.info("dropped");
    log.child({ step: "auth" }).error("denied");
    parent.info("parent still at info");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => [l.msg, l.reqId, l.step])).toEqual([
      ["denied", "req-2", "auth"],
      ["parent still at info", undefined, undefined],
    ]);
  });
});
