import { describe, expect, it } from "vitest";

import { parseLadderSettings, type LadderSettings } from "@gauntlet/core";

import { createRng, type Rng } from "../seating/prng.ts";
import {
  applyEpisode,
  applyRound,
  closeRound,
  displayRating,
  initialRatingState,
  type RatingState,
  type SettledEpisode,
} from "./index.ts";

const kinds = ["elo", "score", "openskill"] as const;
const at = new Date("2026-03-01T12:00:00Z");

function gaussian(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

describe("applyEpisode", () => {
  it.each(kinds)(
    "%s: returns only the participants, starts the unknown at the initial state, leaves the input alone",
    (ranking) => {
      const settings = parseLadderSettings({ ladder: { ranking } });
      const bystander = initialRatingState(settings);
      const states = new Map<string, RatingState>([["z", bystander]]);
      const updated = applyEpisode(
        states,
        {
          participants: [
            { subjectId: "a", score: 1 },
            { subjectId: "b", score: 0 },
          ],
          at,
        },
        settings,
      );
      expect([...updated.keys()].sort()).toEqual(["a", "b"]);
      expect(states.size).toBe(1);
      expect(states.get("z")).toBe(bystander);
      for (const state of updated.values()) expect(state.kind).toBe(ranking);
    },
  );

  it("starts a subject afresh when its state is of another ranking kind (the league switched)", () => {
    const eloState = initialRatingState(parseLadderSettings({}));
    const settings = parseLadderSettings({
      ladder: { ranking: "score", score: { aggregation: "mean" } },
    });
    const updated = applyEpisode(
      new Map([["a", eloState]]),
      { participants: [{ subjectId: "a", score: 7 }], at },
      settings,
    );
    const a = updated.get("a");
    expect(a?.kind).toBe("score");
    expect(a && displayRating(a, settings)).toBe(7);
  });

  it("score ranking records a lone participant's score; Elo and OpenSkill need an opponent", () => {
    const lone: SettledEpisode = { participants: [{ subjectId: "solo", score: 3 }], at };
    expect(
      applyEpisode(new Map(), lone, parseLadderSettings({ ladder: { ranking: "score" } })).size,
    ).toBe(1);
    expect(
      applyEpisode(new Map(), lone, parseLadderSettings({ ladder: { ranking: "elo" } })).size,
    ).toBe(0);
    expect(
      applyEpisode(new Map(), lone, parseLadderSettings({ ladder: { ranking: "openskill" } })).size,
    ).toBe(0);
  });
});

describe("closeRound and applyRound", () => {
  it("Elo: closing folds the round's change in; closing again changes nothing", () => {
    const settings = parseLadderSettings({});
    const pending = applyEpisode(
      new Map(),
      {
        participants: [
          { subjectId: "a", score: 1 },
          { subjectId: "b", score: 0 },
        ],
        at,
      },
      settings,
    );
    const closed = closeRound(pending);
    const a = closed.get("a");
    expect(a && displayRating(a, settings)).toBe(1516);
    expect(closeRound(closed).size).toBe(0);
  });

  it("OpenSkill and score states need no closing", () => {
    const settings = parseLadderSettings({ ladder: { ranking: "openskill" } });
    const updated = applyEpisode(
      new Map(),
      {
        participants: [
          { subjectId: "a", score: 1 },
          { subjectId: "b", score: 0 },
        ],
        at,
      },
      settings,
    );
    expect(closeRound(updated).size).toBe(0);
  });

  it("applyRound equals applying each episode in turn, then closing", () => {
    const settings = parseLadderSettings({});
    const episodes: SettledEpisode[] = [
      {
        participants: [
          { subjectId: "a", score: 1 },
          { subjectId: "b", score: 0 },
        ],
        at,
      },
      {
        participants: [
          { subjectId: "b", score: 1 },
          { subjectId: "c", score: 0 },
        ],
        at,
      },
      {
        participants: [
          { subjectId: "a", score: 1 },
          { subjectId: "c", score: 0 },
        ],
        at,
      },
    ];
    const byHand = new Map<string, RatingState>();
    for (const e of episodes)
      for (const [id, s] of applyEpisode(byHand, e, settings)) byHand.set(id, s);
    for (const [id, s] of closeRound(byHand)) byHand.set(id, s);
    expect(applyRound(new Map(), episodes, settings)).toEqual(byHand);
    const rating = (id: string) => {
      const s = byHand.get(id);
      return s ? displayRating(s, settings) : Number.NaN;
    };
    expect(rating("a")).toBe(1516);
    expect(rating("b")).toBe(1500);
    expect(rating("c")).toBe(1484);
  });
});

describe("ordering emerges from noisy episodes", () => {
  // True strengths a > b > c; each episode's score is strength plus noise as large as the gaps.
  const strength: Record<string, number> = { a: 3, b: 2, c: 1 };

  function simulate(settings: LadderSettings, seed: string): Map<string, RatingState> {
    const rng = createRng(seed);
    let states = new Map<string, RatingState>();
    let hour = 0;
    for (let round = 0; round < 40; round += 1) {
      const episodes: SettledEpisode[] = [];
      for (let e = 0; e < 6; e += 1) {
        // Mix 2-player and 3-player episodes.
        const seated =
          rng.next() < 0.5 ? ["a", "b", "c"] : ["a", "b", "c"].filter((_, i) => i !== rng.int(3));
        hour += 1;
        episodes.push({
          participants: seated.map((subjectId) => ({
            subjectId,
            score: (strength[subjectId] ?? 0) + gaussian(rng),
          })),
          at: new Date(Date.parse("2026-01-01T00:00:00Z") + hour * 3_600_000),
        });
      }
      states = new Map([...states, ...applyRound(states, episodes, settings)]);
    }
    return states;
  }

  const cases: [string, LadderSettings][] = [
    ["elo (mean)", parseLadderSettings({})],
    ["elo (ewma)", parseLadderSettings({ ladder: { elo: { round_scoring: "ewma" } } })],
    ["elo (margin)", parseLadderSettings({ ladder: { elo: { margin_scale: 4 } } })],
    ["score (ewma)", parseLadderSettings({ ladder: { ranking: "score" } })],
    [
      "score (mean)",
      parseLadderSettings({ ladder: { ranking: "score", score: { aggregation: "mean" } } }),
    ],
    [
      "score (max)",
      parseLadderSettings({ ladder: { ranking: "score", score: { aggregation: "max" } } }),
    ],
    ["openskill", parseLadderSettings({ ladder: { ranking: "openskill" } })],
  ];

  it.each(cases)("%s ranks a > b > c", (_name, settings) => {
    for (const seed of ["one", "two", "three"]) {
      const states = simulate(settings, seed);
      const shown = ["a", "b", "c"].map((id) => {
        const s = states.get(id);
        return s ? displayRating(s, settings) : Number.NaN;
      });
      expect(shown[0]).toBeGreaterThan(shown[1] ?? Infinity);
      expect(shown[1]).toBeGreaterThan(shown[2] ?? Infinity);
    }
  });
});
