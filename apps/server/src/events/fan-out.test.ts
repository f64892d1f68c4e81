// The fan-out writes a chunk of subscribers per turn of the event loop, so the replica serves
// requests meanwhile; rows handed in before a subscriber's turn go to it in the same write; a
// subscriber of several topics gets each event once, in seq order.
import { describe, expect, it } from "vitest";

import type { CompetitionEvent } from "@gauntlet/core";

import { eventRow } from "../../testing/event-row.ts";
import { makeDelivery, type Delivery } from "./delivery.ts";
import { TopicFanOut } from "./fan-out.ts";

const delivery = (seq: number, division: string | null = null) =>
  makeDelivery(eventRow(seq, { division_id: division }), { seq } as unknown as CompetitionEvent, {
    league: undefined,
    division: undefined,
  });

/** Three subscribers of one topic; each call a subscriber is handed (its seqs) is one write. */
function threeWatchers(chunk: number) {
  const fanOut = new TopicFanOut(() => ["t"], { chunk });
  const writes: number[][][] = [[], [], []];
  for (const w of writes)
    fanOut.add({ handedThrough: 0, deliver: (d) => w.push(d.map((x) => x.row.seq)) }, "t");
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

  it("hands a subscriber of two topics each event once, in seq order, whichever topic it is on", async () => {
    // Events on division "a", "b", or both ("ab": routed to a and b).
    const fanOut = new TopicFanOut((d) => (d.row.division_id ?? "").split(""), { chunk: 1 });
    const both: number[][] = [];
    const onlyB: number[][] = [];
    const subscriber = {
      handedThrough: 0,
      deliver: (d: readonly Delivery[]) => both.push(seqs(d)),
    };
    fanOut.add(subscriber, "b");
    fanOut.add(subscriber, "a");
    fanOut.add({ handedThrough: 0, deliver: (d) => onlyB.push(seqs(d)) }, "b");
    fanOut.deliver([delivery(1, "a"), delivery(2, "b"), delivery(3, "ab")]);
    fanOut.deliver([delivery(4, "b"), delivery(5, "a")]);
    await fanOut.written();
    expect(both.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(onlyB.flat()).toEqual([2, 3, 4]);
  });

  it("hands nothing more to a subscriber removed while a pass runs", async () => {
    const { fanOut, writes } = threeWatchers(1);
    const third = { handedThrough: 0, deliver: () => expect.unreachable("removed") };
    fanOut.add(third, "t");
    fanOut.deliver([delivery(1)]);
    fanOut.remove(third);
    fanOut.deliver([delivery(2)]);
    await fanOut.written();
    expect(writes.map((w) => w.flat())).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(fanOut.size).toBe(3);
  });
});

const seqs = (d: readonly Delivery[]) => d.map((x) => x.row.seq);
