import { describe, expect, it } from "vitest";

import { parseLadderSettings } from "@gauntlet/core";

import type { SettledEpisode } from "./ratings/index.ts";
import { roundResults } from "./round-results.ts";

const at = new Date("2026-02-01T00:00:00Z");
const ep = (scores: Record<string, number>, anchors: string[] = []): SettledEpisode => ({
  participants: Object.entries(scores).map(([subjectId, score]) => ({
    subjectId,
    score,
    anchor: anchors.includes(subjectId),
  })),
  at,
});

describe("roundResults", () => {
  it("ranks players by the mean of their episode scores; equal means share a rank", () => {
    const results = roundResults(
      [ep({ a: 4, b: 2 }), ep({ a: 0, c: 2 }), ep({ b: 2, c: 2 })],
      parseLadderSettings({}),
    );
    expect(results).toEqual([
      { subjectId: "a", score: 2, episodes: 2, rank: 1 },
      { subjectId: "b", score: 2, episodes: 2, rank: 1 },
      { subjectId: "c", score: 2, episodes: 2, rank: 1 },
    ]);
    const spread = roundResults([ep({ a: 5, b: 3 }), ep({ c: 3, d: 1 })], parseLadderSettings({}));
    expect(spread.map((r) => [r.subjectId, r.rank])).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 2],
      ["d", 4],
    ]);
  });

  it("uses the best episode under score ranking with aggregation max", () => {
    const settings = parseLadderSettings({
      ladder: { ranking: "score", score: { aggregation: "max" } },
    });
    const results = roundResults([ep({ a: 1, b: 3 }), ep({ a: 9, b: 3 })], settings);
    expect(results.map((r) => [r.subjectId, r.score])).toEqual([
      ["a", 9],
      ["b", 3],
    ]);
  });

  it("leaves fillers out and counts a multi-seat player once per episode", () => {
    const results = roundResults(
      [
        {
          participants: [
            { subjectId: "a", score: 6 },
            { subjectId: "a", score: 2 },
            { subjectId: "f", score: 9, anchor: true },
          ],
          at,
        },
      ],
      parseLadderSettings({}),
    );
    expect(results).toEqual([{ subjectId: "a", score: 4, episodes: 1, rank: 1 }]);
  });
});
