import { describe, expect, it } from "vitest";

import {
  DivisionLeaderboard,
  DivisionLeaderboards,
  LeaderboardRow,
  parseLadderSettings,
  type LeaderboardRecentRound,
} from "@gauntlet/core";

import { LadderSimulation } from "../../../testing/ladder-simulation.ts";
import { applyRound, type RatingState } from "./ratings/index.ts";
import {
  divisionLeaderboard,
  leaderboardViews,
  standings,
  type StandingEntry,
} from "./standings.ts";

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const player = (n: number) => `ply_${uuid(n)}`;
const round = (n: number): LeaderboardRecentRound => ({
  id: `round_${uuid(100 + n)}`,
  round_number: n,
  status: "completed",
  rank: 1,
  score: 0.5,
  started_at: "2026-01-01T00:00:00Z",
  completed_at: "2026-01-01T00:10:00Z",
});
const at = new Date("2026-01-01T00:00:00Z");

function entry(
  n: number,
  state: RatingState | undefined,
  roundsPlayed = 1,
  recentRounds: LeaderboardRecentRound[] = [],
): StandingEntry {
  return {
    playerId: player(n),
    playerName: `P${n}`,
    state,
    roundsPlayed,
    recentRounds,
    policyVersionIds: [uuid(200 + n)],
  };
}

describe("standings", () => {
  const settings = parseLadderSettings({});
  const states = applyRound(
    new Map(),
    [
      {
        participants: [
          { subjectId: player(1), score: 1 },
          { subjectId: player(2), score: 0 },
        ],
        at,
      },
      {
        participants: [
          { subjectId: player(3), score: 1 },
          { subjectId: player(4), score: 0 },
        ],
        at,
      },
    ],
    settings,
  );

  it("orders by rating; equal ratings share a rank and are ordered by rounds played, then player id", () => {
    const rows = standings(
      [
        entry(4, states.get(player(4))),
        entry(2, states.get(player(2)), 3),
        entry(1, states.get(player(1))),
        entry(3, states.get(player(3))),
        entry(5, undefined, 0),
      ],
      settings,
    );
    expect(rows.map((r) => [r.player_id, r.rank, r.score])).toEqual([
      [player(1), 1, 1516],
      [player(3), 1, 1516],
      [player(5), 3, 1500],
      [player(2), 4, 1484],
      [player(4), 4, 1484],
    ]);
    expect(rows.map((r) => r.rounds_played)).toEqual([1, 1, 0, 3, 1]);
    for (const row of rows) expect(LeaderboardRow.parse(row)).toEqual(row);
  });

  it("gives the same order whatever order entries come in", () => {
    const entries = [1, 2, 3, 4].map((n) => entry(n, states.get(player(n))));
    expect(standings([...entries].reverse(), settings)).toEqual(standings(entries, settings));
  });

  it("keeps the newest recent rounds first, up to the limit, or none when not asked for", () => {
    const e = entry(1, states.get(player(1)), 7, [1, 2, 3, 4, 5, 6, 7].map(round));
    expect(
      standings([e], settings, { recentRoundsLimit: 3 })[0]?.recent_rounds.map(
        (r) => r.round_number,
      ),
    ).toEqual([7, 6, 5]);
    expect(standings([e], settings, { includeRecentRounds: false })[0]?.recent_rounds).toEqual([]);
  });

  it("counts a player's rated episodes", () => {
    expect(standings([entry(1, states.get(player(1)))], settings)[0]?.episodes_played).toBe(1);
  });

  it("is null when the division has nobody, an array otherwise", () => {
    expect(divisionLeaderboard([])).toBeNull();
    const rows = standings([entry(1, undefined)], settings);
    expect(DivisionLeaderboard.parse(divisionLeaderboard(rows))).toEqual(rows);
  });

  it("ranks an unrated player, or one rated under another ranking kind, at the initial value", () => {
    const scoreSettings = parseLadderSettings({
      ladder: { ranking: "score", score: { initial: 0 } },
    });
    const rows = standings([entry(1, states.get(player(1))), entry(2, undefined)], scoreSettings);
    expect(rows.map((r) => r.score)).toEqual([0, 0]);
  });
});

describe("leaderboardViews", () => {
  it("serves one overall view whose rows follow the standings", () => {
    const settings = parseLadderSettings({ ladder: { ranking: "openskill" } });
    const states = applyRound(
      new Map(),
      [
        {
          participants: [
            { subjectId: player(1), score: 0 },
            { subjectId: player(2), score: 1 },
          ],
          at,
        },
      ],
      settings,
    );
    const views = leaderboardViews(
      [entry(1, states.get(player(1))), entry(2, states.get(player(2)), 1, [round(1)])],
      settings,
    );
    expect(DivisionLeaderboards.parse(views)).toEqual(views);
    expect(views.default_view_key).toBe("overall");
    const view = views.views[0];
    expect(view?.axis_values).toEqual({ ranking: "openskill" });
    expect(view?.columns.map((c) => c.key)).toEqual([
      "rank",
      "score",
      "rounds_played",
      "episodes_played",
      "mu",
      "sigma",
    ]);
    expect(view?.rows.map((r) => r.subject_id)).toEqual([player(2), player(1)]);
    const top = view?.rows[0];
    expect(top?.values.rank).toBe(1);
    expect(top?.values.score).toBeCloseTo(
      Number(top?.values.mu) - 3 * Number(top?.values.sigma),
      12,
    );
    expect(top?.policy_version_ids).toEqual([uuid(202)]);
    expect(top?.recent_rounds).toHaveLength(1);
  });

  it("labels the score column by ranking kind and adds no OpenSkill columns to Elo", () => {
    const views = leaderboardViews([], parseLadderSettings({}));
    expect(views.views[0]?.columns.map((c) => c.label)).toEqual([
      "Rank",
      "Elo",
      "Rounds",
      "Episodes",
    ]);
    expect(views.views[0]?.rows).toEqual([]);
  });
});

describe("the published score and its interval", () => {
  // Strengths 120 Elo apart: the online Elo lags the fit for many rounds (it moves at most K a
  // round). Held within the fit's interval it sat on an edge ("1574.1 1574.1…1809.0"); the
  // published score is the fit's own strength, the online rating its form.
  const players = Array.from({ length: 6 }, (_, i) => ({
    id: `p${i}`,
    strength: (-120 * i * Math.LN10) / 400,
  }));

  it.each(["round_robin", "adaptive"] as const)(
    "every row's score is the fit's, in the middle of its interval, ranked by it (%s)",
    (seating) => {
      const sim = new LadderSimulation({
        settings: parseLadderSettings({ ladder: { seating } }),
        players,
        seed: `within-${seating}`,
        draws: 100,
      });
      for (let r = 0; r < 12; r += 1) {
        const { rows } = sim.round();
        for (const row of rows) {
          const interval = row.score_interval;
          if (!interval) throw new Error(`${row.player_id} has no interval`);
          // Inside, never on an edge: the interval is around the score.
          expect(row.score).toBeCloseTo((interval.low + interval.high) / 2, 6);
          expect(interval.high - interval.low).toBeGreaterThan(1);
          expect(row.form).toBeTypeOf("number");
        }
        // Ranks follow the published scores.
        const scores = rows.map((row) => row.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      }
    },
  );

  it("shows the published order and scores in the views answer too", () => {
    const sim = new LadderSimulation({
      settings: parseLadderSettings({}),
      players,
      seed: "views",
      draws: 100,
    });
    for (let r = 0; r < 12; r += 1) sim.round();
    const entries = sim.rows.map((row) => ({
      playerId: row.player_id,
      playerName: row.player_name,
      state: {
        kind: "elo" as const,
        rating: 1500 + 10 * Number(row.player_id.slice(1)),
        episodes: row.episodes_played,
        pendingDelta: 0,
        pendingEpisodes: 0,
      },
      roundsPlayed: row.rounds_played,
      recentRounds: [],
      policyVersionIds: [],
    }));
    const view = leaderboardViews(entries, sim.settings, {}, sim.rows).views[0];
    expect(view?.rows.map((r) => [r.subject_id, r.values.rank, r.values.score])).toEqual(
      sim.rows.map((r) => [r.player_id, r.rank, r.score]),
    );
  });

  it("publishes the fit after a single game and keeps the online rating as form", () => {
    const settings = parseLadderSettings({});
    const game = {
      at,
      participants: [
        { subjectId: player(1), score: 1 },
        { subjectId: player(2), score: 0 },
      ],
    };
    const states = applyRound(new Map(), [game], settings);
    const rows = standings(
      [entry(2, states.get(player(2))), entry(1, states.get(player(1)))],
      settings,
      { record: { seed: "one-game", episodes: [game] } },
    );
    expect(rows.map((r) => [r.player_id, r.rank, r.form])).toEqual([
      [player(1), 1, 1516],
      [player(2), 2, 1484],
    ]);
    const [winner, loser] = rows;
    // The fit's strengths, centred where the online ratings are (1500), on Elo's slope.
    expect(((winner?.score ?? 0) + (loser?.score ?? 0)) / 2).toBeCloseTo(1500, 6);
    expect(winner?.score).toBeGreaterThan(1500);
    for (const r of rows) {
      const interval = r.score_interval;
      if (!interval) throw new Error("no interval");
      expect(r.score).toBeCloseTo((interval.low + interval.high) / 2, 6);
      expect(r.score).not.toBe(r.form);
    }
  });
});
