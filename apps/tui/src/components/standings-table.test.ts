import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { recentRound, row } from "../../testing/fixtures.ts";
import { lines, renderAt } from "../../testing/ink.ts";
import { nextStandings } from "../state/standings.ts";
import { standingsColumns, StandingsTable } from "./standings-table.ts";

afterEach(cleanup);

const rows = Array.from({ length: 30 }, (_, i) =>
  row(i + 1, `Player ${i + 1}`, { recent_rounds: [recentRound(2, i + 1), recentRound(1, 30 - i)] }),
);

describe("the standings table", () => {
  it("fits the width it is given and drops the sparkline when narrow", () => {
    const wide = standingsColumns(76);
    expect(
      wide.rank +
        wide.move +
        wide.name +
        wide.rating +
        wide.interval +
        wide.ranks +
        wide.rounds +
        wide.recent,
    ).toBeLessThanOrEqual(76);
    expect(standingsColumns(70)).toMatchObject({ ranks: 0, interval: 13, recent: 10 });
    expect(standingsColumns(60)).toMatchObject({ ranks: 0, interval: 0, recent: 10 });
    expect(standingsColumns(50).recent).toBe(0);
  });

  it("scrolls to keep the selected row in view", async () => {
    const view = nextStandings(null, rows);
    const table = renderAt(
      h(StandingsTable, { view, rows, selected: 25, focused: true, width: 70, height: 10 }),
      80,
      20,
    );
    const frame = await table.waitFor("the table", (f) => f.includes("Player 26"));
    const shown = lines(frame);
    expect(shown).toHaveLength(10);
    expect(shown[0]).toMatch(/^#\s+±\s+Player\s+Score\s+95% interval\s+Rounds\s+Recent$/);
    expect(frame).toMatch(/›26\s+·\s+Player 26/);
    expect(frame).not.toContain("Player 1 ");
  });
});

describe("the certainty columns", () => {
  it("show each row's interval as its two ends and the ranks it could hold, or settled", async () => {
    const certain = [
      row(1, "Ada", {
        score: 1560,
        score_interval: { low: 1530, high: 1590 },
        rank_range: { best: 1, worst: 1 },
        settled: true,
      }),
      row(2, "Bo", {
        score: 1480,
        score_interval: { low: 1430.4, high: 1529.6 },
        rank_range: { best: 2, worst: 3 },
        settled: false,
      }),
      row(3, "Cy", { score: 1460, score_interval: null, rank_range: { best: 2, worst: 3 } }),
    ];
    const view = nextStandings(null, certain);
    const table = renderAt(
      h(StandingsTable, { view, rows: certain, selected: 0, focused: false, width: 80, height: 5 }),
      90,
      10,
    );
    const frame = await table.waitFor("the table", (f) => f.includes("Cy"));
    const shown = lines(frame);
    expect(shown[0]).toMatch(/Score\s+95% interval\s+Could rank\s+Rounds\s+Recent$/);
    expect(shown[1]).toMatch(/Ada\s+1560\s+1530…1590\s+settled\s+3$/);
    expect(shown[2]).toMatch(/Bo\s+1480\s+1430…1530\s+2–3\s+3$/);
    expect(shown[3]).toMatch(/Cy\s+1460\s+2–3\s+3$/);
  });
});
