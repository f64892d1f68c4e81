// The rating ledger (ratings recomputed from the record, episodes voided) and what beats what:
// a division's pairwise results. Response and request shapes of the standings operations.
import { z } from "zod";

import { DivisionId, idSchema, PlayerId } from "../ids.ts";
import { Timestamp } from "./common.ts";

export const RecomputeRatingsRequest = z
  .strictObject({
    dry_run: z.boolean().default(true).meta({
      description: "true (the default): answer the differences only; false: apply them.",
    }),
  })
  .meta({ id: "RecomputeRatingsRequest" });

export const RatingDifference = z
  .object({
    player_id: PlayerId,
    player_name: z.string(),
    stored: z.number().nullable().meta({ description: "The rating stored now (null: none)." }),
    recomputed: z.number().nullable(),
    difference: z.number().meta({ description: "recomputed − stored (0 when both are null)." }),
  })
  .meta({ id: "RatingDifference" });

export const RatingsRecompute = z
  .object({
    division_id: DivisionId,
    dry_run: z.boolean(),
    applied: z
      .boolean()
      .meta({ description: "Whether stored ratings changed (never on a dry run)." }),
    rounds: z.number().int().min(0).meta({ description: "Settled rounds replayed." }),
    episodes_scored: z.number().int().min(0),
    episodes_unscored: z.number().int().min(0).meta({
      description:
        "Final episodes of those rounds left out: failures no seat caused, cancellations, voids.",
    }),
    rows: z.array(RatingDifference).meta({
      description: "Every rated player of the division, the changed ones first.",
    }),
  })
  .meta({ id: "RatingsRecompute" });

export const VoidEpisodeRequest = z
  .strictObject({ reason: z.string().trim().min(1).max(500) })
  .meta({ id: "VoidEpisodeRequest" });

export const EpisodeVoid = z
  .object({
    episode_request_id: idSchema("episodeRequest"),
    reason: z.string(),
    voided_by: z.string(),
    voided_at: Timestamp,
    recompute: RatingsRecompute.nullable().meta({
      description: "The division's ratings recomputed without it (null: not a league episode).",
    }),
  })
  .meta({ id: "EpisodeVoid" });

export const PairwiseCell = z
  .object({
    player_id: PlayerId,
    opponent_id: PlayerId,
    wins: z.number().int().min(0),
    losses: z.number().int().min(0),
    draws: z.number().int().min(0),
    episodes: z.number().int().min(0),
    win_rate: z.number().min(0).max(1).nullable().meta({
      description: "(wins + draws / 2) / episodes; null with no episodes.",
    }),
  })
  .meta({ id: "PairwiseCell" });

export const DivisionPairwise = z
  .object({
    division_id: DivisionId,
    players: z
      .array(z.object({ player_id: PlayerId, player_name: z.string() }))
      .meta({ description: "In standings order." }),
    cells: z.array(PairwiseCell).meta({
      description:
        "One per ordered pair that met: `player_id` finished ahead of `opponent_id` `wins` times.",
    }),
    episodes: z.number().int().min(0).meta({ description: "Scored episodes counted." }),
  })
  .meta({ id: "DivisionPairwise" });

export type RecomputeRatingsRequest = z.infer<typeof RecomputeRatingsRequest>;
export type RatingDifference = z.infer<typeof RatingDifference>;
export type RatingsRecompute = z.infer<typeof RatingsRecompute>;
export type VoidEpisodeRequest = z.infer<typeof VoidEpisodeRequest>;
export type EpisodeVoid = z.infer<typeof EpisodeVoid>;
export type PairwiseCell = z.infer<typeof PairwiseCell>;
export type DivisionPairwise = z.infer<typeof DivisionPairwise>;
