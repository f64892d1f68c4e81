import { describe, expect, it } from "vitest";

import { isOver, newGame, seededRandom, step, viewFor, winnerSlot } from "../game/rules.ts";
import { greedy, randomMove, wanderer, type Strategy } from "./strategies.ts";

/** Plays one duel-small episode in memory and returns the winner's slot (null on a tie). */
function duel(strategies: Strategy[], seed: number): number | null {
  const state = newGame({
    width: 9,
    height: 9,
    turns: 40,
    coins: 5,
    seed,
    players: strategies.length,
  });
  const random = seededRandom(seed * 7919 + 1);
  while (!isOver(state)) {
    step(
      state,
      strategies.map((strategy, slot) => strategy(viewFor(state, slot), random)),
    );
  }
  return winnerSlot(state.scores);
}

/** Wins of `a` over `b` in 20 episodes, seats alternating. */
function winsOf(a: Strategy, b: Strategy): number {
  let wins = 0;
  for (let episode = 0; episode < 20; episode += 1) {
    const aSlot = episode % 2;
    const seated = aSlot === 0 ? [a, b] : [b, a];
    if (duel(seated, 1000 + episode) === aSlot) wins += 1;
  }
  return wins;
}

describe("baseline strength", () => {
  it("greedy beats wanderer in the large majority of 20 duels", () => {
    expect(winsOf(greedy, wanderer)).toBeGreaterThanOrEqual(17);
  });

  it("wanderer beats random in the large majority of 20 duels", () => {
    expect(winsOf(wanderer, randomMove)).toBeGreaterThanOrEqual(17);
  });

  it("greedy beats random in every one of 20 duels", () => {
    expect(winsOf(greedy, randomMove)).toBe(20);
  });

  it("a weaker baseline rarely beats a stronger one", () => {
    expect(winsOf(wanderer, greedy)).toBeLessThanOrEqual(2);
    expect(winsOf(randomMove, wanderer)).toBeLessThanOrEqual(2);
  });
});
