import { describe, expect, it } from "vitest";

import { parseLadderSettings } from "@gauntlet/core";

import { scoredEpisodes, type RecordedEpisode } from "./scored-episodes.ts";

const elo = parseLadderSettings({});
const score = parseLadderSettings({ ladder: { ranking: "score" } });
const seats = [
  { position: 0, subjectId: "ada", anchor: false },
  { position: 1, subjectId: "bo", anchor: false },
  { position: 2, subjectId: "filler:v1", anchor: true },
];
const episode = (over: Partial<RecordedEpisode>): RecordedEpisode => ({
  id: "ereq_1",
  status: "completed",
  error_type: null,
  failed_policy_index: null,
  scores: "[3, 1, 2]",
  updated_at: "2026-01-01T00:00:00.000Z",
  voided: false,
  seats,
  ...over,
});
const scores = (e: RecordedEpisode, settings = elo) =>
  scoredEpisodes(e, settings).map((s) => s.participants.map((p) => [p.subjectId, p.score]));

describe("which episodes count", () => {
  it("scores a completed episode as played, and a voided one not at all", () => {
    expect(scores(episode({}))).toEqual([
      [
        ["ada", 3],
        ["bo", 1],
        ["filler:v1", 2],
      ],
    ]);
    expect(scores(episode({ voided: true }))).toEqual([]);
  });

  it("never scores a failure no seat caused, nor one that names no seat", () => {
    for (const error_type of [
      "game_crashed",
      "timeout",
      "runner_error",
      "game_unhealthy",
      "infrastructure",
    ])
      expect(scores(episode({ status: "failed", error_type, failed_policy_index: 0 }))).toEqual([]);
    expect(scores(episode({ status: "failed", error_type: "out_of_memory" }))).toEqual([]);
    expect(scores(episode({ status: "cancelled" }))).toEqual([]);
  });

  it("counts a seat's own failure as its loss to each other seat only", () => {
    const failed = episode({
      status: "failed",
      error_type: "resource_limit",
      failed_policy_index: 1,
    });
    expect(scores(failed)).toEqual([
      [
        ["ada", 1],
        ["bo", 0],
      ],
      [
        ["filler:v1", 1],
        ["bo", 0],
      ],
    ]);
    // Under score ranking the failing seat alone scores 0; nobody else gains a made-up score.
    expect(scores(failed, score)).toEqual([[["bo", 0]]]);
    expect(scores({ ...failed, voided: true })).toEqual([]);
  });

  it("counts a seat's wall clock (policy_timeout) against that seat, as its other limits", () => {
    const waited = episode({
      status: "failed",
      error_type: "policy_timeout",
      failed_policy_index: 1,
    });
    expect(scores(waited)).toEqual([
      [
        ["ada", 1],
        ["bo", 0],
      ],
      [
        ["filler:v1", 1],
        ["bo", 0],
      ],
    ]);
    // Docker with several seats still running names none: nobody's loss.
    expect(scores(episode({ status: "failed", error_type: "policy_timeout" }))).toEqual([]);
  });
});
