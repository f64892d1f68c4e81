import { describe, expect, it } from "vitest";

import { USER_CAPACITIES } from "@gauntlet/core";

import { MemoryBudgetStore } from "./memory-store.ts";

const T0 = 1_700_000_000_000;

describe("memory budget store", () => {
  it("forgets identities whose buckets are all full again, so 100k callers do not pile up", async () => {
    let now = T0;
    const store = new MemoryBudgetStore({ clock: () => now, sweepIntervalMs: 60_000 });
    for (let i = 0; i < 100_000; i++) await store.decide(`user-${i}`, USER_CAPACITIES, 10, true);
    expect(store.size).toBe(100_000);

    // A minute on (the next sweep), the light callers are long full again (after 0.1 s).
    now += 60_000;
    const heavy = await store.decide("heavy", USER_CAPACITIES, 20_000, true);
    expect(heavy.allowed).toBe(true);
    expect(store.size).toBe(1);

    // A heavy caller is kept until its slowest bucket refills (20000 credits at 100 per second: 200 s)…
    now += 100_000;
    await store.decide("someone", USER_CAPACITIES, 1, true);
    expect(store.size).toBe(2);
    // …and forgotten after.
    now += 120_000;
    await store.decide("someone-else", USER_CAPACITIES, 1, true);
    expect(store.size).toBe(1);
  });

  it("remembers a drawn-down budget until it is full, whatever the sweeps", async () => {
    let now = T0;
    const store = new MemoryBudgetStore({ clock: () => now, sweepIntervalMs: 1_000 });
    for (let i = 0; i < 24; i++) await store.decide("busy", USER_CAPACITIES, 1000, true);
    now += 1_500;
    await store.decide("other", USER_CAPACITIES, 1, true);
    expect((await store.decide("busy", USER_CAPACITIES, 1000, true)).allowed).toBe(false);
  });

  it("does not record a rejected or a peeked decision", async () => {
    const store = new MemoryBudgetStore({ clock: () => T0 });
    await store.decide("peek", USER_CAPACITIES, 10, false);
    expect(store.size).toBe(0);
  });
});
