// League.settings.ladder (docs/api.md, "League play in short"): how a division's rounds are seated
// and how standings are computed. Objects are loose so keys this version does not know (e.g.
// upstream's `enabled`, `fulfillment`) survive a read-modify-write of the settings document.
import { z } from "zod";

export const RankingKind = z.enum(["elo", "score", "openskill"]);
export const SeatingStrategy = z.enum(["round_robin", "swiss_neighbor", "adaptive"]);
export const TooFewPlayersPolicy = z.enum(["multiple_seats", "filler_policy", "do_not_run"]);

export const EloSettings = z
  .looseObject({
    initial: z.number().min(-100_000).max(100_000).default(1500),
    k: z.number().positive().max(1000).default(32),
    round_scoring: z.enum(["mean", "ewma"]).default("mean").meta({
      description:
        "How a player's per-episode Elo changes within one round are folded into the one change applied when the round settles.",
    }),
    ewma_alpha: z
      .number()
      .gt(0)
      .max(1)
      .default(0.3)
      .meta({ description: "Weight of each newer episode under `round_scoring: ewma`." }),
    margin_scale: z.number().positive().nullable().default(null).meta({
      description:
        "When set, an episode's pairwise result is 0.5 + (score difference) / (2 × margin_scale), clamped to [0, 1], instead of win/draw/loss.",
    }),
  })
  .meta({ id: "LadderEloSettings" });

export const ScoreSettings = z
  .looseObject({
    aggregation: z.enum(["ewma", "mean", "max"]).default("ewma"),
    half_life_hours: z.number().positive().max(1_000_000).default(24).meta({
      description:
        "Under `ewma`, an episode this many hours older than the newest one weighs half as much.",
    }),
    initial: z
      .number()
      .default(0)
      .meta({ description: "Standing of a player with no settled episode yet." }),
  })
  .meta({ id: "LadderScoreSettings" });

export const OpenSkillSettings = z
  .looseObject({
    mu: z.number().default(25),
    sigma: z
      .number()
      .positive()
      .default(25 / 3),
    beta: z
      .number()
      .positive()
      .default(25 / 6),
    tau: z
      .number()
      .min(0)
      .default(25 / 300),
  })
  .meta({ id: "LadderOpenSkillSettings" });

export const PromotionSettings = z
  .looseObject({
    promote: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(0)
      .meta({ description: "Top players of a division moved up one level." }),
    relegate: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(0)
      .meta({ description: "Bottom players of a division moved down one level." }),
    every_rounds: z.number().int().min(1).max(100_000).default(1),
  })
  .meta({
    id: "LadderPromotionSettings",
    description: "Off while both promote and relegate are 0 (the default).",
  });

export const LadderSettings = z
  .looseObject({
    ranking: RankingKind.default("elo"),
    elo: EloSettings.prefault({}),
    score: ScoreSettings.prefault({}),
    openskill: OpenSkillSettings.prefault({}),
    seating: SeatingStrategy.default("round_robin"),
    players_per_episode: z.number().int().min(1).max(256).default(2),
    episodes_per_pairing: z.number().int().min(1).max(1000).default(1),
    too_few_players: TooFewPlayersPolicy.default("do_not_run"),
    min_players: z.number().int().min(1).max(10_000).default(2).meta({
      description: "Fewer champions than this and no round runs, whatever too_few_players says.",
    }),
    max_episodes_per_round: z.number().int().min(1).max(1_000_000).default(10_000).meta({
      description:
        "A round whose plan would exceed this is not started (round_robin grows as n choose k).",
    }),
    round_interval_minutes: z
      .number()
      .positive()
      .max(525_600)
      .nullable()
      .default(null)
      .meta({ description: "Null: a new round starts when the previous one settles." }),
    submissions_per_day: z.number().int().min(1).max(100_000).nullable().default(null).meta({
      description:
        "Null (the default): no limit. Otherwise the submissions one user may make to the league in 24 hours; a submission whose episodes all failed for infrastructure reasons is not counted.",
    }),
    promotion: PromotionSettings.prefault({}),
    variant_id: z.string().min(1).optional(),
    game_config: z.record(z.string(), z.unknown()).default({}).meta({
      description:
        "Merged over the variant's game_config for every episode of a round (e.g. fewer turns for a faster ladder).",
    }),
  })
  .meta({ id: "LadderSettings" });

const SettingsDocument = z.looseObject({ ladder: LadderSettings.prefault({}) });

export type LadderSettings = z.infer<typeof LadderSettings>;
export type EloSettings = z.infer<typeof EloSettings>;
export type ScoreSettings = z.infer<typeof ScoreSettings>;
export type OpenSkillSettings = z.infer<typeof OpenSkillSettings>;
export type PromotionSettings = z.infer<typeof PromotionSettings>;
export type RankingKind = z.infer<typeof RankingKind>;

/**
 * The ladder settings of a `League.settings` document, defaults filled in. A missing document
 * or a missing `ladder` gives all defaults; a malformed field throws a ZodError whose issue
 * path names it (e.g. `ladder.elo.k`).
 */
export function parseLadderSettings(settings: unknown): LadderSettings {
  return SettingsDocument.parse(settings ?? {}).ladder;
}
