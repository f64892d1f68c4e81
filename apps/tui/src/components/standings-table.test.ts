import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { nextStandings } from "../state/standings.ts";
import { recentRound, row } from "../testing/fixtures.ts";
import { lines, renderAt } from "../testing/ink.ts";
import { standingsColumns, StandingsTable } from "./standings-table.ts";

afterEach(cleanup);

const rows = Array.from({ length: 30 }, (_, i) =>
  row(i + 1, `Player ${i + 1}`, { recent_rounds: [recentRound(2, i + 1), recentRound(1, 30 - i)] }),
);

describe("the standings table", () => {
  it("fits the width it is given and drops the sparkline when narrow", () => {
    const wide = standingsColumns(76);
    expect(
      wide.rank + wide.move + wide.name + wide.rating + wide.rounds + wide.recent,
    ).toBeLessThanOrEqual(76);
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
    expect(shown[0]).toMatch(/^#\s+±\s+Player\s+Rating\s+Rounds\s+Recent$/);
    expect(frame).toMatch(/›26\s+·\s+Player 26/);
    expect(frame).not.toContain("Player 1 ");
  });
});
