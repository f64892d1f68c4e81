import { describe, expect, it } from "vitest";

import type { LeaderboardRow } from "@gauntlet/core";

import { formatTable } from "../output.ts";
import {
  intervalCell,
  LEADERBOARD_HEADERS,
  leaderboardCells,
  leaderboardFootnote,
  rankRangeCell,
} from "./leaderboard-rows.ts";

function row(over: Partial<LeaderboardRow>): LeaderboardRow {
  return {
    rank: 1,
    player_id: "player_00000000-0000-4000-8000-000000000001",
    player_name: "Ada",
    score: 1540,
    score_label: "Elo",
    rounds_played: 4,
    recent_rounds: [],
    episodes_played: 12,
    ...over,
  };
}

describe("the leaderboard table", () => {
  it("shows the interval as its two ends", () => {
    expect(intervalCell(row({ score_interval: { low: 1500, high: 1580 } }))).toBe("1500…1580");
    expect(intervalCell(row({ score_interval: { low: 1400.25, high: 1560 } }))).toBe("1400.3…1560");
    expect(intervalCell(row({ score_interval: null }))).toBe("");
    expect(intervalCell(row({}))).toBe("");
  });

  it("shows the ranks a row could hold, or that its rank is settled", () => {
    expect(rankRangeCell(row({ rank_range: { best: 1, worst: 3 }, settled: false }))).toBe("1–3");
    expect(rankRangeCell(row({ rank_range: { best: 2, worst: 2 }, settled: true }))).toBe(
      "settled",
    );
    expect(rankRangeCell(row({ rank_range: { best: 2, worst: 3 }, settled: true }))).toBe(
      "tied 2–3",
    );
    // A server without the figures says nothing about it.
    expect(rankRangeCell(row({}))).toBe("");
  });

  it("lays the figures out under their headers and says what they rest on", () => {
    const rows = [
      row({
        score_interval: { low: 1500, high: 1580 },
        rank_range: { best: 1, worst: 2 },
        p_above_next: 0.87,
        form: 1562.5,
        settled: false,
        evidence_episodes: 30,
      }),
      row({
        rank: 2,
        player_name: "Bo",
        score: 1460,
        score_interval: { low: 1420, high: 1500 },
        rank_range: { best: 1, worst: 2 },
        p_above_next: null,
        settled: false,
        evidence_episodes: 30,
      }),
    ];
    const lines = formatTable(LEADERBOARD_HEADERS, rows.map(leaderboardCells)).split("\n");
    expect(lines[0]).toMatch(
      /RANK\s+COULD RANK\s+PLAYER\s+SCORE\s+95% INTERVAL\s+P>NEXT\s+FORM\s+ROUNDS\s+EPISODES\s+RECENT RANKS/,
    );
    expect(lines[1]).toMatch(/^1\s+1–2\s+Ada\s+1540\s+1500…1580\s+87%\s+1562.5\s+4\s+12/);
    expect(lines[2]).toMatch(/^2\s+1–2\s+Bo\s+1460\s+1420…1500\s+-\s+-\s+4\s+12/);
    expect(leaderboardFootnote(rows)).toBe("intervals from 30 episode(s); 2 rank(s) not settled");
    expect(
      leaderboardFootnote(rows.map((r) => ({ ...r, settled: true, rank_range: undefined }))),
    ).toBe("intervals from 30 episode(s); every rank is settled");
    // A server without the figures (the hosted service) still prints its table.
    expect(leaderboardFootnote([row({})])).toBeNull();
  });
});
