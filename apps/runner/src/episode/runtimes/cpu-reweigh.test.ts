// A runnable that wants its whole cap weighs an eighth of one that does not, so a seat that
// sleeps and computes for its turn gets its CPU at once beside an opponent that spins.
import { describe, expect, it } from "vitest";

import { reweigher } from "./cpu-share.ts";

/** Feeds demand readings (CPU seconds used + waited) at 250 ms steps; the weights written. */
async function weights(cpus: number, demandPerStep: number[]): Promise<number[]> {
  const written: number[] = [];
  const reweigh = reweigher(cpus, 1024, async (w) => written.push(w));
  let demand = 0;
  await reweigh(demand, 0);
  for (const [i, step] of demandPerStep.entries()) {
    demand += step;
    await reweigh(demand, (i + 1) * 250);
  }
  return written;
}

describe("a runnable's weight by its demand", () => {
  it("drops to an eighth once it wanted its whole cap for half a second, and comes back once it rests", async () => {
    // 1 CPU: a quarter second of demand per quarter second is all of it.
    expect(await weights(1, [0.25, 0.25, 0.25, 0.25, 0, 0, 0.25, 0.25])).toEqual([128, 1024, 128]);
  });

  it("stays whole for a seat that sleeps and computes a third of the time", async () => {
    expect(
      await weights(
        1,
        Array.from({ length: 20 }, () => 0.08),
      ),
    ).toEqual([]);
  });

  it("judges demand against the cap: two threads spinning under a cap of 2 CPUs are hungry, one is not", async () => {
    expect(await weights(2, [0.5, 0.5])).toEqual([128]);
    expect(await weights(2, [0.25, 0.25, 0.25, 0.25])).toEqual([]);
  });

  it("does nothing without a reading (no cpu group)", async () => {
    const written: number[] = [];
    const reweigh = reweigher(1, 1024, async (w) => written.push(w));
    await reweigh(null, 0);
    await reweigh(null, 5_000);
    expect(written).toEqual([]);
  });
});
