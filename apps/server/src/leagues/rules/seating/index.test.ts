import { describe, expect, it } from "vitest";

import { parseLadderSettings } from "@gauntlet/core";

import { entrants } from "../../../../testing/test-entrants.ts";
import { planRound } from "./index.ts";

const settings = (ladder: Record<string, unknown>) => parseLadderSettings({ ladder });

describe("planRound", () => {
  it("runs a default round robin of 2-seat episodes", () => {
    const plan = planRound({
      entrants: entrants(4),
      settings: settings({}),
      seed: "round_1",
      roundNumber: 1,
    });
    expect(plan).toMatchObject({ kind: "run", seating: "round_robin", episodeCount: 6 });
  });

  it("runs swiss_neighbor when configured", () => {
    const plan = planRound({
      entrants: entrants(5),
      settings: settings({ seating: "swiss_neighbor" }),
      seed: 1,
      roundNumber: 0,
    });
    expect(plan).toMatchObject({ kind: "run", seating: "swiss_neighbor", episodeCount: 3 });
  });

  it("is the same plan for the same seed", () => {
    const input = {
      entrants: entrants(6),
      settings: settings({ episodes_per_pairing: 2 }),
      seed: "round_x",
      roundNumber: 4,
    };
    expect(planRound(input)).toEqual(planRound(input));
  });

  it("does not run below min_players, whatever the too-few policy (N = 0 and N = 1)", () => {
    for (const too_few_players of ["multiple_seats", "filler_policy", "do_not_run"]) {
      expect(
        planRound({
          entrants: [],
          settings: settings({ too_few_players, min_players: 1 }),
          seed: 1,
          roundNumber: 0,
        }),
      ).toMatchObject({
        kind: "skip",
        reason: "below_min_players",
      });
      expect(
        planRound({
          entrants: entrants(1),
          settings: settings({ too_few_players }),
          seed: 1,
          roundNumber: 0,
        }),
      ).toMatchObject({
        kind: "skip",
        reason: "below_min_players",
      });
    }
  });

  it("do_not_run: returns the reason instead of episodes", () => {
    const plan = planRound({
      entrants: entrants(3),
      settings: settings({ players_per_episode: 4 }),
      seed: 1,
      roundNumber: 0,
    });
    expect(plan).toEqual({
      kind: "skip",
      reason: "too_few_players",
      message: "3 champion(s) for 4 seats and too_few_players is do_not_run",
    });
  });

  it("multiple_seats: one table with duplicates, episodes_per_pairing episodes", () => {
    const plan = planRound({
      entrants: entrants(3),
      settings: settings({
        players_per_episode: 8,
        too_few_players: "multiple_seats",
        episodes_per_pairing: 2,
      }),
      seed: 1,
      roundNumber: 0,
    });
    expect(plan).toMatchObject({ kind: "run", seating: "multiple_seats", episodeCount: 2 });
  });

  it("multiple_seats with a single player is allowed when min_players is 1", () => {
    const plan = planRound({
      entrants: entrants(1),
      settings: settings({ too_few_players: "multiple_seats", min_players: 1 }),
      seed: 1,
      roundNumber: 0,
    });
    expect(plan).toMatchObject({ kind: "run", seating: "multiple_seats", episodeCount: 1 });
  });

  it("filler_policy: uses the league's fillers, or says there are none", () => {
    const base = {
      entrants: entrants(1),
      settings: settings({ too_few_players: "filler_policy", min_players: 1 }),
      seed: 1,
      roundNumber: 0,
    };
    expect(planRound({ ...base, fillerPolicyVersionIds: ["f"] })).toMatchObject({
      kind: "run",
      seating: "filler_policy",
    });
    expect(planRound(base)).toMatchObject({ kind: "skip", reason: "no_filler_policies" });
  });

  it("refuses a round robin larger than max_episodes_per_round before building it", () => {
    const plan = planRound({
      entrants: entrants(1000),
      settings: settings({}),
      seed: 1,
      roundNumber: 0,
    });
    expect(plan).toMatchObject({ kind: "skip", reason: "too_many_episodes" });
  });
});
