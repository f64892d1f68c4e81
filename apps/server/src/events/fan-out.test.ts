// The fan-out writes a chunk of subscribers per turn of the event loop, so the replica serves
// requests meanwhile; rows handed in before a subscriber's turn go to it in the same write.
import { describe, expect, it } from "vitest";

import type { CompetitionEvent } from "@gauntlet/core";

import { eventRow } from "../../testing/event-row.ts";
import { makeDelivery } from "./delivery.ts";
import { TopicFanOut } from "./fan-out.ts";

const delivery = (seq: number) =>
  makeDelivery(eventRow(seq), { seq } as unknown as CompetitionEvent, {
    league: undefined,
    division: undefined,
  });

/** Three subscribers of one topic; each call a subscriber is handed (its seqs) is one write. */
function threeWatchers(chunk: number) {
  const fanOut = new TopicFanOut(() => ["t"], { chunk });
  const writes: number[][][] = [[], [], []];
  for (const w of writes) fanOut.add({ deliver: (d) => w.push(d.map((x) => x.row.seq)) }, "t");
  return { fanOut, writes };
}

describe("the fan-out", () => {
  it("writes a chunk at once and the rest on later turns, giving way to other work", async () => {
    const { fanOut, writes } = threeWatchers(1);
    fanOut.deliver([delivery(1)]);
    expect(writes).toEqual([[[1]], [], []]);
    // A request that arrived meanwhile runs before the next chunk.
    const order: string[] = [];
    setImmediate(() => order.push("request"));
    await fanOut.written();
    order.push("written");
    expect(order).toEqual(["request", "written"]);
    expect(writes).toEqual([[[1]], [[1]], [[1]]]);
  });

  it("hands rows that arrive during a fan-out to the subscribers not yet written, in one write", async () => {
    const { fanOut, writes } = threeWatchers(1);
    fanOut.deliver([delivery(1)]);
    fanOut.deliver([delivery(2), delivery(3)]);
    await fanOut.written();
    expect(writes).toEqual([[[1], [2, 3]], [[1, 2, 3]], [[1, 2, 3]]]);
  });

  it("with chunk 0, writes every subscriber at once", () => {
    const { fanOut, writes } = threeWatchers(0);
    fanOut.deliver([delivery(1)]);
    expect(writes).toEqual([[[1]], [[1]], [[1]]]);
  });
});
