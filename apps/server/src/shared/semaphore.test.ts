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
