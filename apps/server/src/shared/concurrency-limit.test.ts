import { describe, expect, it } from "vitest";

import { concurrencyLimit } from "./concurrency-limit.ts";

describe("concurrencyLimit", () => {
  it("runs at most max tasks at once, the rest in order, and frees a slot when a task fails", async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const task = (i: number) =>
      limit.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running -= 1;
        order.push(i);
        if (i === 0) throw new Error("task 0 fails");
        return i;
      });
    const all = [0, 1, 2, 3].map((i) => task(i).catch((e: Error) => e.message));
    await new Promise((r) => setTimeout(r, 10));
    expect(limit.active).toBe(2);
    expect(limit.waiting).toBe(2);
    while (gates.length || limit.active) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await Promise.all(all)).toEqual(["task 0 fails", 1, 2, 3]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});
