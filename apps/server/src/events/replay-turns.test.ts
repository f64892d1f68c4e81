import { setImmediate as nextTurn } from "node:timers/promises";

import { describe, expect, it } from "vitest";

import { ReplayTurns } from "./replay-turns.ts";

/** Counts the turns of the event loop until stopped: `now()` is the current one. */
function countTurns(): { now(): number; stop(): void } {
  let turn = 0;
  let counting = true;
  void (async () => {
    while (counting) {
      await nextTurn();
      turn += 1;
    }
  })();
  return {
    now: () => turn,
    stop: () => {
      counting = false;
    },
  };
}

describe("replay turns", () => {
  it("starts at most `size` units in one turn of the event loop, the rest in later turns, in order", async () => {
    const turns = new ReplayTurns(2);
    const loop = countTurns();
    const started: { unit: number; turn: number }[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, unit) =>
        turns.run(async () => {
          started.push({ unit, turn: loop.now() });
        }),
      ),
    );
    loop.stop();
    expect(started.map((s) => s.unit)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const perTurn = new Map<number, number>();
    for (const s of started) perTurn.set(s.turn, (perTurn.get(s.turn) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
    expect(perTurn.size).toBeGreaterThanOrEqual(4);
  });

  it("gives the event loop a turn between units of one replay run back to back, as nothing else waits", async () => {
    // The flood that held the loop: each reader's next slice started the moment its last ended.
    const turns = new ReplayTurns(2);
    const loop = countTurns();
    const seen: number[] = [];
    for (let unit = 0; unit < 10; unit += 1) await turns.run(async () => seen.push(loop.now()));
    loop.stop();
    expect(new Set(seen).size).toBeGreaterThanOrEqual(5);
  });

  it("runs at most `size` units at once, however long they take", async () => {
    const turns = new ReplayTurns(2);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        turns.run(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(2);
  });

  it("gives the turn on when a unit fails", async () => {
    const turns = new ReplayTurns(1);
    await expect(
      turns.run(async () => {
        throw new Error("read failed");
      }),
    ).rejects.toThrow("read failed");
    await expect(turns.run(async () => "next")).resolves.toBe("next");
  });
});
