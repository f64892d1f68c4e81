// Division standings as served (GET /v2/divisions/{id}/leaderboard and …/leaderboards).
// Rows are precomputed when a round settles; these are the response shapes.
import { z } from "zod";

import { idSchema, PlayerId, Uuid } from "../ids.ts";
import { Timestamp } from "./common.ts";

export const RoundStatus = z
  .enum(["pending", "running", "completed", "failed"])
  .meta({ id: "RoundStatus" });

export const LeaderboardRecentRound = z
  .object({
    id: idSchema("round"),
    round_number: z.number().int().min(0),
    status: RoundStatus,
    rank: z.number().int().min(1).nullable().meta({
      description: "The player's rank among that round's results; null before it settles.",
    }),
    score: z.number().nullable(),
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
  })
  .meta({ id: "LeaderboardRecentRound" });

export const ScoreInterval = z
  .object({ low: z.number(), high: z.number() })
  .meta({ id: "ScoreInterval" });

export const RankRange = z
  .object({ best: z.number().int().min(1), worst: z.number().int().min(1) })
  .meta({ id: "RankRange" });

export const LeaderboardRow = z
  .object({
    rank: z.number().int().min(1).meta({ description: "Equal scores share a rank (1, 2, 2, 4)." }),
    player_id: PlayerId,
    player_name: z.string(),
    score: z.number().meta({
      description:
        "The division's ranking value: Elo rating, score standing, or OpenSkill mu − 3·sigma. Where the row carries a `score_interval` (Gauntlet), it is the strength a Bradley–Terry / Plackett–Luce fit of the division's whole record gives the row, on that scale, in the middle of its interval; rows are ranked by it. Otherwise (no record of the row yet) it is the online rating, `form`.",
    }),
    score_label: z.string().meta({
      description: "What `score` is: `Elo`, `Score` or `Rating (μ − 3σ)` (the division's ranking).",
    }),
    rounds_played: z.number().int().min(0),
    recent_rounds: z
      .array(LeaderboardRecentRound)
      .meta({ description: "Newest first; empty unless include_recent_rounds." }),
    episodes_played: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Settled episodes that counted toward the score (Gauntlet)." }),
    score_interval: ScoreInterval.nullable().optional().meta({
      description:
        "The 95% interval of the row's fitted strength on the `score` scale, from a Bradley–Terry / Plackett–Luce fit of the division's settled episodes (a Laplace approximation: around `score`); null while the record says nothing about the row (Gauntlet).",
    }),
    form: z.number().optional().meta({
      description:
        "The online rating (Elo, score standing or OpenSkill mu − 3·sigma) updated episode by episode: it moves a game's worth at a time and weighs recent results as the rating rule does, where `score` reads the whole record at once. Present with the interval figures (Gauntlet).",
    }),
    rank_range: RankRange.optional().meta({
      description: "The ranks the row could hold at 95%; always includes `rank` (Gauntlet).",
    }),
    p_above_next: z.number().min(0).max(1).nullable().optional().meta({
      description:
        "The probability that this row is truly stronger than the next row; null on the last row or when either is unrecorded (Gauntlet).",
    }),
    settled: z.boolean().optional().meta({
      description:
        "True when `rank_range` is a single rank, or holds only the places of a run of rows the fit calls even (the 95% interval of their difference within ±50 Elo: a tie) (Gauntlet).",
    }),
    evidence_episodes: z.number().int().min(0).optional().meta({
      description:
        "The division's settled episodes the interval figures rest on; the same on every row (Gauntlet).",
    }),
  })
  .meta({ id: "LeaderboardRow" });

export const DivisionLeaderboard = z.array(LeaderboardRow).nullable().meta({
  id: "DivisionLeaderboard",
  description: "Rows best first; null when the division has no standings yet.",
});

export const LeaderboardAxis = z
  .object({ key: z.string(), label: z.string() })
  .meta({ id: "LeaderboardAxis" });

export const LeaderboardColumn = z
  .object({
    key: z.string(),
    label: z.string(),
    value_type: z.enum(["integer", "number", "string"]),
    sort: z
      .enum(["asc", "desc"])
      .nullable()
      .meta({ description: "The direction in which this column ranks rows; null if it does not." }),
  })
  .meta({ id: "LeaderboardColumn" });

export const LeaderboardSubjectType = z.enum(["player", "policy_version"]);

export const LeaderboardViewRow = z
  .object({
    subject_type: LeaderboardSubjectType,
    subject_id: z.string(),
    subject_name: z.string(),
    values: z
      .record(z.string(), z.union([z.number(), z.string(), z.null()]))
      .meta({ description: "Keyed by column key." }),
    policy_version_ids: z.array(Uuid),
    recent_rounds: z.array(LeaderboardRecentRound),
  })
  .meta({ id: "LeaderboardViewRow" });

export const LeaderboardView = z
  .object({
    key: z.string(),
    title: z.string(),
    description: z.string(),
    axis_values: z.record(z.string(), z.string()),
    columns: z.array(LeaderboardColumn),
    rows: z.array(LeaderboardViewRow),
  })
  .meta({ id: "LeaderboardView" });

export const DivisionLeaderboards = z
  .object({
    default_view_key: z.string(),
    axes: z.array(LeaderboardAxis),
    views: z.array(LeaderboardView),
  })
  .meta({ id: "DivisionLeaderboards" });

export type RoundStatus = z.infer<typeof RoundStatus>;
export type LeaderboardRecentRound = z.infer<typeof LeaderboardRecentRound>;
export type ScoreInterval = z.infer<typeof ScoreInterval>;
export type RankRange = z.infer<typeof RankRange>;
export type LeaderboardRow = z.infer<typeof LeaderboardRow>;
export type DivisionLeaderboard = z.infer<typeof DivisionLeaderboard>;
export type LeaderboardColumn = z.infer<typeof LeaderboardColumn>;
export type LeaderboardViewRow = z.infer<typeof LeaderboardViewRow>;
export type LeaderboardView = z.infer<typeof LeaderboardView>;
export type DivisionLeaderboards = z.infer<typeof DivisionLeaderboards>;
