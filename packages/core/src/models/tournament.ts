// Tournaments: a league's cup over chosen policy versions, played in waves of matches on the
// runners, each wave one experience request (docs/api.md, "Tournaments in short").
import { z } from "zod";

import { idSchema, LeagueId } from "../ids.ts";
import { FreeForm, Timestamp } from "./common.ts";

export const TournamentId = idSchema("tournament");

export const MAX_TOURNAMENT_ENTRANTS = 64;
export const MAX_EPISODES_PER_MATCH = 9;

export const TournamentFormat = z
  .enum(["single_elimination", "double_elimination", "round_robin"])
  .meta({ id: "TournamentFormat" });
export const TournamentStatus = z
  .enum(["draft", "locked", "running", "completed", "cancelled", "failed"])
  .meta({ id: "TournamentStatus" });
export const TournamentMatchStatus = z
  .enum(["pending", "ready", "running", "completed", "void"])
  .meta({ id: "TournamentMatchStatus" });
export const TournamentBracket = z.enum(["main", "winners", "losers", "final"]).meta({
  id: "TournamentBracket",
  description:
    "`main` in single elimination and round robin; in double elimination the winners bracket, the losers bracket, or the grand final.",
});
export const TournamentMatchDecision = z
  .enum(["bye", "score", "tie_higher_seed", "void_higher_seed"])
  .meta({
    id: "TournamentMatchDecision",
    description:
      "How the winner was decided: a bye, the higher mean score, a tie (the higher seed advances), or a void match — no episode completed (the higher seed advances).",
  });

const PolicyVersionIds = z
  .array(z.uuid())
  .min(2)
  .max(MAX_TOURNAMENT_ENTRANTS)
  .refine((ids) => new Set(ids).size === ids.length, {
    message: "each policy version may enter once",
  })
  .meta({
    description:
      "Entrants in seed order (seed 1 first). Absent: the league's current standings seed its competing champions.",
  });

export const CreateTournament = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    format: TournamentFormat,
    policy_version_ids: PolicyVersionIds.optional(),
    episodes_per_match: z.number().int().min(1).max(MAX_EPISODES_PER_MATCH).default(1),
    variant_id: z.string().min(1).optional().meta({
      description: "The variant of the league's coworld the matches play; its default when absent.",
    }),
    game_config_overrides: FreeForm.optional(),
  })
  .meta({ id: "CreateTournament" });

export const TournamentPatch = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    format: TournamentFormat.optional(),
    policy_version_ids: PolicyVersionIds.optional(),
    episodes_per_match: z.number().int().min(1).max(MAX_EPISODES_PER_MATCH).optional(),
    variant_id: z.string().min(1).nullable().optional(),
    game_config_overrides: FreeForm.nullable().optional(),
  })
  .meta({ id: "TournamentPatch" });

export const TournamentEntrant = z
  .object({
    seed: z.number().int().min(1),
    policy_version_id: z.string(),
    player_id: z.string().nullable(),
    display_name: z.string(),
  })
  .meta({ id: "TournamentEntrant" });

export const TournamentMatch = z
  .object({
    id: z.string(),
    bracket: TournamentBracket,
    round: z.number().int().min(1).meta({
      description:
        "1 is the first round of its bracket; in an elimination bracket the final is the last, in a round robin each round is one wave.",
    }),
    position: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Place in its round, top of the bracket first." }),
    status: TournamentMatchStatus,
    seed_a: z.number().int().nullable().meta({
      description:
        "The entrant in the first slot, by seed; null until decided by the matches before.",
    }),
    seed_b: z.number().int().nullable(),
    winner_seed: z.number().int().nullable(),
    decided_by: TournamentMatchDecision.nullable(),
    score_a: z
      .number()
      .nullable()
      .meta({ description: "Mean score of entrant a over the match's completed episodes." }),
    score_b: z.number().nullable(),
    episodes_completed: z.number().int(),
    experience_request_id: z
      .string()
      .nullable()
      .meta({ description: "The wave (experience request) that played it." }),
  })
  .meta({ id: "TournamentMatch" });

export const Tournament = z
  .object({
    id: TournamentId,
    league_id: LeagueId,
    name: z.string(),
    format: TournamentFormat,
    status: TournamentStatus,
    episodes_per_match: z.number().int(),
    variant_id: z.string().nullable(),
    game_config_overrides: FreeForm.nullable(),
    seeding: z.enum(["given", "standings"]),
    entrants: z.array(TournamentEntrant),
    matches: z
      .array(TournamentMatch)
      .meta({ description: "Empty until locked; by round, then position." }),
    waves: z
      .array(z.string())
      .meta({ description: "The experience requests that played its waves, oldest first." }),
    winner: TournamentEntrant.nullable(),
    error: z.string().nullable(),
    created_by_user_id: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
  })
  .meta({ id: "Tournament" });

export const TournamentIdParams = z.object({ tournament_id: TournamentId });

export type CreateTournament = z.infer<typeof CreateTournament>;
export type TournamentPatch = z.infer<typeof TournamentPatch>;
export type Tournament = z.infer<typeof Tournament>;
export type TournamentEntrant = z.infer<typeof TournamentEntrant>;
export type TournamentMatch = z.infer<typeof TournamentMatch>;
export type TournamentFormat = z.infer<typeof TournamentFormat>;
export type TournamentStatus = z.infer<typeof TournamentStatus>;
export type TournamentMatchStatus = z.infer<typeof TournamentMatchStatus>;
export type TournamentMatchDecision = z.infer<typeof TournamentMatchDecision>;
export type TournamentBracket = z.infer<typeof TournamentBracket>;
