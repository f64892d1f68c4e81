import { describe, expect, it } from "vitest";

import { moveCell, newGame, step, winnerSlot, type GameState } from "./rules.ts";

function game(players = 2): GameState {
  return newGame({ width: 5, height: 5, turns: 10, coins: 3, seed: 42, players });
}

describe("GridRush rules", () => {
  it("starts players in distinct corners with the configured number of coins on free cells", () => {
    const state = game(4);
    expect(state.positions).toEqual([
      [0, 0],
      [4, 4],
      [4, 0],
      [0, 4],
    ]);
    expect(state.coins).toHaveLength(3);
    const cells = [...state.positions, ...state.coins].map(([x, y]) => `${x},${y}`);
    expect(new Set(cells).size).toBe(cells.length);
  });

  it("places the same coins for the same seed", () => {
    expect(game().coins).toEqual(game().coins);
  });

  it("treats a move off the grid as a stay", () => {
    expect(moveCell([0, 0], "N", 5, 5)).toEqual([0, 0]);
    expect(moveCell([0, 0], "W", 5, 5)).toEqual([0, 0]);
    expect(moveCell([4, 4], "S", 5, 5)).toEqual([4, 4]);
    expect(moveCell([2, 2], "E", 5, 5)).toEqual([3, 2]);
  });

  it("scores a coin reached by one player and replaces it", () => {
    const state = game();
    state.coins = [
      [1, 0],
      [3, 3],
      [2, 2],
    ];
    const record = step(state, ["E", "stay"]);
    expect(record.scores).toEqual([1, 0]);
    expect(record.scored).toEqual([0]);
    expect(state.coins).toHaveLength(3);
    expect(state.coins).not.toContainEqual([1, 0]);
  });

  it("loses a coin that two players reach in the same turn", () => {
    const state = game();
    state.positions = [
      [1, 1],
      [3, 1],
    ];
    state.coins = [
      [2, 1],
      [0, 4],
      [4, 4],
    ];
    const record = step(state, ["E", "W"]);
    expect(record.scores).toEqual([0, 0]);
    expect(state.coins).toHaveLength(3);
  });

  it("names a winner only when one slot leads alone", () => {
    expect(winnerSlot([3, 5, 1])).toBe(1);
    expect(winnerSlot([4, 4, 1])).toBeNull();
  });
});
