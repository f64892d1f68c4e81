// The fair order alone: classes take slots by weight, requesters take turns, the cap holds.
import { describe, expect, it } from "vitest";

import { contentionSince, FairOrder, SHARE_WINDOW_MS, type QueuedJob } from "./fair-order.ts";
import { DEFAULT_QUEUE_SHARES, queueSharesFrom } from "./queue-shares.ts";

const jobs = (shareClass: QueuedJob["shareClass"], owner: string, n: number, from: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${owner}-${i}`,
    shareClass,
    owner,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, from + i)).toISOString(),
    episodeId: `${owner}-${i}`,
  }));

/** The owners of the first `n` jobs taken, none ending meanwhile. */
function taken(order: FairOrder, n: number): string[] {
  const out: string[] = [];
  for (let job = order.peek(); job && out.length < n; job = order.peek()) {
    order.take(job);
    out.push(job.owner);
  }
  return out;
}

describe("the fair order", () => {
  it("gives backlogged classes slots in proportion to their weights, whatever queued first", () => {
    const order = new FairOrder(
      DEFAULT_QUEUE_SHARES,
      [],
      [...jobs("evaluation", "ann", 40, 0), ...jobs("league", "league", 40, 100)],
      { capped: false },
    );
    const first = taken(order, 30);
    expect(first.filter((o) => o === "league")).toHaveLength(20);
    expect(first.filter((o) => o === "ann")).toHaveLength(10);
  });

  // On a runner of one slot nothing runs whenever the slot frees: the oldest job used to win
  // every time, so an evaluation backlog queued first went ahead of every league round.
  it("on a runner of one slot, gives a free slot to the heavier class, not the oldest job", () => {
    const first = (running: { shareClass: QueuedJob["shareClass"]; owner: string; n: number }[]) =>
      new FairOrder(
        DEFAULT_QUEUE_SHARES,
        running,
        [...jobs("evaluation", "ann", 40, 0), ...jobs("league", "league", 40, 100)],
        { capped: false },
      ).peek()?.owner;
    expect(first([])).toBe("league");
    // With a league job running the evaluation's turn comes: 2/4 against 1/2 ties to the oldest.
    expect(first([{ shareClass: "league", owner: "league", n: 1 }])).toBe("ann");
  });

  // A runner of two slots, a league with a backlog: counting running jobs alone, the league's
  // (2 + 1) / 4 beat a certification's (0 + 1) / 1 for as long as the league had work, and the
  // quick start's certification waited out every demo round.
  it("lets a light class in once a heavy one has had its share of what ran lately", () => {
    const next = (ended: number) =>
      new FairOrder(
        DEFAULT_QUEUE_SHARES,
        [{ shareClass: "league", owner: "league", n: 1 }],
        [...jobs("league", "league", 40, 0), ...jobs("certification", "admin", 1, 100)],
        { ended: { league: ended } },
      ).peek()?.owner;
    expect(next(0)).toBe("league");
    expect(next(3)).toBe("admin");
    // Served by the window alone, classes of equal weight take turns.
    const order = new FairOrder(
      DEFAULT_QUEUE_SHARES,
      [],
      [...jobs("play", "play", 10, 0), ...jobs("evaluation", "ann", 10, 50)],
      { ended: { play: 4 }, capped: false },
    );
    expect(taken(order, 6)).toEqual(["ann", "ann", "ann", "ann", "play", "ann"]);
  });

  it("counts what ended only since every class now waiting began to wait, at most the window", () => {
    const now = new Date(Date.UTC(2026, 0, 1, 1));
    const at = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
    const job = (shareClass: QueuedJob["shareClass"], minutes: number) => ({
      id: `${shareClass}-${minutes}`,
      shareClass,
      owner: shareClass,
      createdAt: at(minutes),
      episodeId: `${shareClass}-${minutes}`,
    });
    // Evaluations waiting for 10 minutes, a certification for 2: what the evaluations ran
    // before the certification came was nobody's loss.
    expect(
      contentionSince([job("evaluation", 10), job("evaluation", 4), job("certification", 2)], now),
    ).toBe(at(2));
    // Both waiting for an hour: the last 15 minutes.
    expect(contentionSince([job("league", 60), job("evaluation", 50)], now)).toBe(
      new Date(now.getTime() - SHARE_WINDOW_MS).toISOString(),
    );
  });

  it("gives requesters turns and stops one at the cap, counting what already runs", () => {
    const order = new FairOrder(
      DEFAULT_QUEUE_SHARES,
      [{ shareClass: "evaluation", owner: "ann", n: 2 }],
      [...jobs("evaluation", "ann", 10, 0), ...jobs("evaluation", "bea", 10, 50)],
    );
    expect(taken(order, 10)).toEqual(["bea", "bea", "ann", "bea", "ann", "bea"]);
  });

  // One user's six idle play sessions held every live slot for an hour, the quick start's
  // newcomer at position 3 behind them.
  it("gives play requesters turns, each at most the play cap at once", () => {
    const order = new FairOrder(
      DEFAULT_QUEUE_SHARES,
      [],
      [...jobs("play", "bob", 6, 0), ...jobs("play", "ann", 1, 50)],
    );
    expect(taken(order, 10)).toEqual(["bob", "ann", "bob"]);
  });

  it("reads its weights and cap from the environment, and refuses a bad one by name", () => {
    expect(
      queueSharesFrom({ GAUNTLET_QUEUE_WEIGHT_PLAY: "5", GAUNTLET_QUEUE_USER_CAP: "2" }),
    ).toEqual({
      weights: { league: 4, play: 5, evaluation: 2, certification: 1 },
      userCap: 2,
      playUserCap: 2,
    });
    expect(() => queueSharesFrom({ GAUNTLET_QUEUE_WEIGHT_LEAGUE: "0" })).toThrow(
      /GAUNTLET_QUEUE_WEIGHT_LEAGUE must be a whole number from 1 to 1000/,
    );
  });
});
