import { describe, expect, it } from "vitest";
import { ZodError } from "zod";

import { parseLadderSettings } from "./ladder-settings.ts";

function issuePath(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ZodError) return (error.issues[0]?.path ?? []).map(String);
    throw error;
  }
  throw new Error("expected a ZodError");
}

describe("parseLadderSettings", () => {
  it("gives every default for a missing document, an empty one or one without ladder", () => {
    const expected = {
      ranking: "elo",
      elo: { initial: 1500, k: 32, round_scoring: "mean", ewma_alpha: 0.3, margin_scale: null },
      score: { aggregation: "ewma", half_life_hours: 24, initial: 0 },
      openskill: { mu: 25, sigma: 25 / 3, beta: 25 / 6, tau: 25 / 300 },
      seating: "round_robin",
      players_per_episode: 2,
      episodes_per_pairing: 1,
      too_few_players: "do_not_run",
      min_players: 2,
      max_episodes_per_round: 10_000,
      round_interval_minutes: null,
      submissions_per_day: null,
      promotion: { promote: 0, relegate: 0, every_rounds: 1 },
      game_config: {},
    };
    expect(parseLadderSettings(undefined)).toEqual(expected);
    expect(parseLadderSettings(null)).toEqual(expected);
    expect(parseLadderSettings({})).toEqual(expected);
    expect(parseLadderSettings({ counterfactual_eval: { on: true } })).toEqual(expected);
    expect(parseLadderSettings({ ladder: {} })).toEqual(expected);
  });

  it("fills the defaults of a partly given nested block and keeps what was given", () => {
    const ladder = parseLadderSettings({ ladder: { elo: { k: 16 }, promotion: { promote: 2 } } });
    expect(ladder.elo).toEqual({
      initial: 1500,
      k: 16,
      round_scoring: "mean",
      ewma_alpha: 0.3,
      margin_scale: null,
    });
    expect(ladder.promotion).toEqual({ promote: 2, relegate: 0, every_rounds: 1 });
  });

  it("keeps keys it does not know, at the top and in nested blocks", () => {
    const ladder = parseLadderSettings({
      ladder: { enabled: true, elo: { upstream_knob: 3 }, variant_id: "duel" },
    });
    expect(ladder).toMatchObject({
      enabled: true,
      elo: { upstream_knob: 3, k: 32 },
      variant_id: "duel",
    });
  });

  it("accepts every option of every enumerated field", () => {
    const ladder = parseLadderSettings({
      ladder: {
        ranking: "openskill",
        seating: "swiss_neighbor",
        too_few_players: "filler_policy",
        score: { aggregation: "max", half_life_hours: 2 },
        elo: { round_scoring: "ewma", margin_scale: 1000 },
        round_interval_minutes: 15,
      },
    });
    expect(ladder.ranking).toBe("openskill");
    expect(ladder.seating).toBe("swiss_neighbor");
    expect(ladder.too_few_players).toBe("filler_policy");
    expect(ladder.score.aggregation).toBe("max");
    expect(ladder.elo.round_scoring).toBe("ewma");
    expect(ladder.round_interval_minutes).toBe(15);
  });

  it("names the malformed field in the thrown error", () => {
    expect(issuePath(() => parseLadderSettings({ ladder: { elo: { k: "32" } } }))).toEqual([
      "ladder",
      "elo",
      "k",
    ]);
    expect(issuePath(() => parseLadderSettings({ ladder: { ranking: "glicko" } }))).toEqual([
      "ladder",
      "ranking",
    ]);
    expect(issuePath(() => parseLadderSettings({ ladder: { players_per_episode: 0 } }))).toEqual([
      "ladder",
      "players_per_episode",
    ]);
    expect(
      issuePath(() => parseLadderSettings({ ladder: { promotion: { every_rounds: 1.5 } } })),
    ).toEqual(["ladder", "promotion", "every_rounds"]);
    expect(
      issuePath(() => parseLadderSettings({ ladder: { score: { half_life_hours: -1 } } })),
    ).toEqual(["ladder", "score", "half_life_hours"]);
    expect(issuePath(() => parseLadderSettings({ ladder: "elo" }))).toEqual(["ladder"]);
  });
});
