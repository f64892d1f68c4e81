// The message bus between replicas over Redis (the Redis suite sets REDIS_URL). A commissioner's
// messages may be 16 MiB; two of them back to back once made Redis drop every subscriber (its
// 32 MB pub/sub output-buffer limit), losing what they had not read.
import { randomUUID } from "node:crypto";

import { createClient } from "redis";
import { afterEach, describe, expect, it } from "vitest";

import { RedisMessageBus, STASH_OVER_CHARS } from "./message-bus.ts";

const url = process.env.REDIS_URL;
const buses: RedisMessageBus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

async function twoReplicas() {
  const channel = `gauntlet:test:messages:${randomUUID()}`;
  const errors: Error[] = [];
  const open = () => {
    const bus = new RedisMessageBus({ url: url ?? "", channel, onError: (e) => errors.push(e) });
    buses.push(bus);
    return bus;
  };
  const a = open();
  const b = open();
  await Promise.all([a.ready(), b.ready()]);
  return { a, b, errors };
}

const until = async (what: string, ok: () => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.runIf(url)("the message bus over Redis", () => {
  it("carries two 16 MiB messages and a small one to every replica, in order", async () => {
    const { a, b, errors } = await twoReplicas();
    const heard: { m: string; n: number }[] = [];
    b.subscribe((message) => {
      const { m } = message as { m: string };
      heard.push({ m: m.slice(0, 8), n: m.length });
    });
    const big = (c: string) => ({ m: c.repeat(16 * 1024 * 1024) });
    a.publish(big("a"));
    a.publish(big("b"));
    a.publish({ m: "small" });
    await until("all three", () => heard.length === 3);
    expect(heard).toEqual([
      { m: "aaaaaaaa", n: 16 * 1024 * 1024 },
      { m: "bbbbbbbb", n: 16 * 1024 * 1024 },
      { m: "small", n: 5 },
    ]);
    expect(errors).toEqual([]);
  });

  it("publishes a message under the limit as it is", async () => {
    const { a, b } = await twoReplicas();
    const heard: unknown[] = [];
    b.subscribe((message) => heard.push(message));
    const message = { t: "x", m: "y".repeat(STASH_OVER_CHARS - 20) };
    a.publish(message);
    await until("the message", () => heard.length === 1);
    expect(heard).toEqual([message]);
  });

  it("delivers a message that looks like the bus's own pointer as it is, never another key", async () => {
    const { a, b, errors } = await twoReplicas();
    // A key the bus has no business reading (a limiter's, say) — a caller's message names it.
    const other = `gauntlet:test:other:${randomUUID()}`;
    const redis = createClient({ url: url ?? "" });
    await redis.connect();
    try {
      await redis.set(other, JSON.stringify({ t: "forged" }), { EX: 60 });
      const heard: unknown[] = [];
      b.subscribe((message) => heard.push(message));
      const lookalike = { gauntlet_stashed_message: other };
      a.publish(lookalike);
      a.publish({ t: "after" });
      await until("both messages", () => heard.length === 2);
      expect(heard).toEqual([lookalike, { t: "after" }]);
      expect(errors).toEqual([]);
    } finally {
      await redis.quit();
    }
  });
});
