import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import type { DivisionPairwise } from "@gauntlet/core";

import { lines, renderAt } from "../../testing/ink.ts";
import { pairwiseGrid, PairwiseMatrix } from "./pairwise-matrix.ts";

afterEach(cleanup);

const ids = ["ply_a", "ply_b", "ply_c"];
const pairwise: DivisionPairwise = {
  division_id: "div_x",
  players: ["Ada", "Bo", "Cy"].map((player_name, i) => ({
    player_id: ids[i] ?? "",
    player_name,
  })),
  episodes: 5,
  cells: [
    {
      player_id: "ply_a",
      opponent_id: "ply_b",
      wins: 2,
      losses: 1,
      draws: 0,
      episodes: 3,
      win_rate: 2 / 3,
    },
    {
      player_id: "ply_b",
      opponent_id: "ply_a",
      wins: 1,
      losses: 2,
      draws: 0,
      episodes: 3,
      win_rate: 1 / 3,
    },
    {
      player_id: "ply_a",
      opponent_id: "ply_c",
      wins: 2,
      losses: 0,
      draws: 0,
      episodes: 2,
      win_rate: 1,
    },
    {
      player_id: "ply_c",
      opponent_id: "ply_a",
      wins: 0,
      losses: 2,
      draws: 0,
      episodes: 2,
      win_rate: 0,
    },
  ],
};

describe("the pairwise matrix", () => {
  it("gives each pair its win rate and count, a dash for pairs that never met", () => {
    const grid = pairwiseGrid(pairwise, 80);
    expect(grid.header).toEqual(["#1", "#2", "#3"]);
    expect(grid.rows.map((r) => [r.name, ...r.cells.map((c) => c.text)])).toEqual([
      ["1 Ada", "·", "67%·3", "100%·2"],
      ["2 Bo", "33%·3", "·", "–"],
      ["3 Cy", "0%·2", "–", "·"],
    ]);
    expect(grid.hidden).toBe(0);
  });

  it("keeps the top of the table when the width is short", () => {
    const grid = pairwiseGrid(pairwise, 14 + 2 * 8);
    expect(grid.rows.map((r) => r.name)).toEqual(["1 Ada", "2 Bo"]);
    expect(grid.hidden).toBe(1);
  });

  it("renders the matrix on screen", () => {
    const r = renderAt(h(PairwiseMatrix, { pairwise, width: 60, height: 5 }), 60, 6);
    const shown = lines(r.frame());
    expect(shown[1]).toContain("1 Ada");
    expect(shown[1]).toContain("67%·3");
    expect(shown[3]).toContain("0%·2");
  });
});
