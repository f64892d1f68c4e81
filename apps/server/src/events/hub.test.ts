// The hub hands a burst of events to a subscriber together: rows that arrive within the linger
// (or while a delivery runs) go out as one batch, which a watcher's socket sends in one write.
import { afterEach, describe, expect, it } from "vitest";

import type { CompetitionEvent } from "@gauntlet/core";

import { eventRow } from "../../testing/event-row.ts";
import { createTestStore, type TestStore } from "../../testing/test-store.ts";
import { LocalEventBus } from "./bus.ts";
import type { Delivery } from "./delivery.ts";
import { EventHub } from "./hub.ts";

let store: TestStore | undefined;
let hub: EventHub | undefined;
afterEach(async () => {
  await hub?.stop();
  await store?.cleanup();
});

/** Two rows 5 ms apart through the bus; the batches a subscriber was handed. */
async function burst(lingerMs: number): Promise<number[][]> {
  store = await createTestStore();
  await store.store.migrate();
  const bus = new LocalEventBus();
  hub = await EventHub.start(store.store.db, bus, {
    render: (_db, rows) =>
      Promise.resolve(rows.map((r) => ({ seq: r.seq }) as unknown as CompetitionEvent)),
    lingerMs,
    pollMs: 60_000,
  });
  const batches: number[][] = [];
  hub.add({ deliver: (d: readonly Delivery[]) => batches.push(d.map((x) => x.row.seq)) });
  const first = hub.lastSeq + 1;
  bus.publish([eventRow(first)]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  bus.publish([eventRow(first + 1)]);
  await new Promise((resolve) => setTimeout(resolve, lingerMs + 50));
  return batches.map((b) => b.map((seq) => seq - first));
}

describe("the event hub", () => {
  it("hands rows arriving within the linger to a subscriber as one batch", async () => {
    expect(await burst(30)).toEqual([[0, 1]]);
  });

  it("without a linger, hands each at once", async () => {
    expect(await burst(0)).toEqual([[0], [1]]);
  });
});
