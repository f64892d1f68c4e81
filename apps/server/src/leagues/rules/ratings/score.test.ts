import { describe, expect, it } from "vitest";

import { parseLadderSettings, type ScoreSettings } from "@gauntlet/core";

import { createRng, shuffled } from "../seating/prng.ts";
import { addScore, initialScoreState, scoreStanding, type ScoreState } from "./score.ts";

const defaults = parseLadderSettings({}).score;
const as = (aggregation: ScoreSettings["aggregation"], half_life_hours = 24): ScoreSettings => ({
  ...defaults,
  aggregation,
  half_life_hours,
});
const t0 = Date.parse("2026-01-01T00:00:00Z");
const hours = (h: number) => new Date(t0 + h * 3_600_000);

function fold(points: readonly [number, Date][], settings: ScoreSettings): ScoreState {
  return points.reduce((s, [score, at]) => addScore(s, score, at, settings), initialScoreState());
}

describe("score standing", () => {
  it("is the configured initial value before any episode", () => {
    expect(scoreStanding(initialScoreState(), { ...defaults, initial: 3 })).toBe(3);
  });

  it("mean and max of 2, 9, 4 are 5 and 9", () => {
    const points: [number, Date][] = [
      [2, hours(0)],
      [9, hours(1)],
      [4, hours(2)],
    ];
    expect(scoreStanding(fold(points, as("mean")), as("mean"))).toBe(5);
    expect(scoreStanding(fold(points, as("max")), as("max"))).toBe(9);
  });

  it("max of only negative scores is the largest of them, not 0", () => {
    expect(
      scoreStanding(
        fold(
          [
            [-5, hours(0)],
            [-2, hours(1)],
          ],
          as("max"),
        ),
        as("max"),
      ),
    ).toBe(-2);
  });

  it("ewma weighs an episode one half-life older half as much: (0.5·10 + 1·4) / 1.5 = 6", () => {
    const settings = as("ewma", 24);
    expect(
      scoreStanding(
        fold(
          [
            [10, hours(0)],
            [4, hours(24)],
          ],
          settings,
        ),
        settings,
      ),
    ).toBeCloseTo(6, 12);
  });

  it("ewma of simultaneous episodes is their plain mean", () => {
    const settings = as("ewma", 1);
    expect(
      scoreStanding(
        fold(
          [
            [1, hours(5)],
            [2, hours(5)],
            [6, hours(5)],
          ],
          settings,
        ),
        settings,
      ),
    ).toBeCloseTo(3, 12);
  });

  it("ewma forgets: after many half-lives an old high score hardly counts", () => {
    const settings = as("ewma", 1);
    expect(
      scoreStanding(
        fold(
          [
            [100, hours(0)],
            [0, hours(40)],
          ],
          settings,
        ),
        settings,
      ),
    ).toBeLessThan(1e-9);
  });

  it("does not depend on the order in which episodes settle", () => {
    const rng = createRng("score-order");
    const points: [number, Date][] = Array.from({ length: 50 }, () => [
      rng.next() * 10,
      hours(rng.next() * 200),
    ]);
    for (const aggregation of ["ewma", "mean", "max"] as const) {
      const settings = as(aggregation, 12);
      const inOrder = scoreStanding(fold(points, settings), settings);
      const outOfOrder = scoreStanding(fold(shuffled(points, rng), settings), settings);
      expect(outOfOrder).toBeCloseTo(inOrder, 9);
    }
  });

  it("keeps all three aggregations, so switching aggregation needs no replay", () => {
    const state = fold(
      [
        [2, hours(0)],
        [8, hours(0)],
      ],
      as("ewma"),
    );
    expect(scoreStanding(state, as("mean"))).toBe(5);
    expect(scoreStanding(state, as("max"))).toBe(8);
    expect(scoreStanding(state, as("ewma"))).toBe(5);
  });

  it("keeps a state of fixed size made of finite numbers, however many episodes", () => {
    const few = fold([[1, hours(0)]], defaults);
    const many = fold(
      Array.from({ length: 5000 }, (_, i): [number, Date] => [i % 7, hours(i)]),
      defaults,
    );
    expect(Object.keys(many)).toEqual(Object.keys(few));
    expect(
      Object.values(initialScoreState())
        .filter((v) => typeof v === "number")
        .every(Number.isFinite),
    ).toBe(true);
    expect(JSON.parse(JSON.stringify(many))).toEqual(many);
  });

  it("rejects an invalid episode time", () => {
    expect(() => addScore(initialScoreState(), 1, new Date(Number.NaN), defaults)).toThrow(
      RangeError,
    );
  });
});
