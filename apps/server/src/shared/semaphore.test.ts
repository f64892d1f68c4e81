import { describe, expect, it } from "vitest";

import { Semaphore, SemaphoreFull } from "./semaphore.ts";

describe("Semaphore", () => {
  it("runs at most its permits at once, the rest in order, and refuses past its queue", async () => {
    const gate = new Semaphore(2, 2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        active += 1;
        peak = Math.max(peak, active);
        order.push(n);
        releases.push(() => {
          active -= 1;
          resolve(n);
        });
      });
    const runs = [1, 2, 3, 4].map((n) => gate.run(task(n)));
    await expect(gate.run(task(5))).rejects.toBeInstanceOf(SemaphoreFull);
    await Promise.resolve();
    expect([gate.running, gate.waiting, order]).toEqual([2, 2, [1, 2]]);
    while (releases.length) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(runs)).toEqual([1, 2, 3, 4]);
    expect([peak, order, gate.running, gate.waiting]).toEqual([2, [1, 2, 3, 4], 0, 0]);
  });

  it("frees its permit when a task throws", async () => {
    const gate = new Semaphore(1, 1);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => "next")).toBe("next");
    expect(gate.running).toBe(0);
  });
});

describe("Semaphore without a bound on waiters", () => {
  it("runs at most max tasks at once, the rest in order, and frees a slot when a task fails", async () => {
    const limit = new Semaphore(2);
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
    expect(limit.running).toBe(2);
    expect(limit.waiting).toBe(2);
    while (gates.length || limit.running) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await Promise.all(all)).toEqual(["task 0 fails", 1, 2, 3]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});
