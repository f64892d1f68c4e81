// Experience requests: a hosted evaluation of a chosen roster over N episodes, played by the
// runners like league rounds (docs/api.md, "Groups").
import { z } from "zod";

import { DivisionId, idSchema, LeagueId } from "../ids.ts";
import { FreeForm, QueryBoolean, queryInt, Timestamp } from "./common.ts";
import { GameConfigOverlaySecretName } from "./config-overlay.ts";
import { CoworldId } from "./coworld.ts";
import { EpisodeRequest } from "./episode.ts";
import { EpisodeStateRequest } from "./player-state.ts";

export const ExperienceRequestId = idSchema("experienceRequest");

export const MAX_EXPERIENCE_EPISODES = 100;

export const ExperienceRequestStatus = z
  .enum(["pending", "submitted", "running", "completed", "failed", "cancelled"])
  .meta({ id: "ExperienceRequestStatus" });

export const ExperienceTarget = z
  .strictObject({
    league_id: LeagueId.optional(),
    division_id: DivisionId.optional(),
    coworld_id: CoworldId.optional(),
    variant_id: z.string().min(1).optional(),
    league_name: z.string().min(1).optional(),
    division_name: z.string().min(1).optional(),
  })
  .meta({
    id: "ExperienceTarget",
    description:
      "Where the episodes are played: a league or division (its game's coworld, its members for `top_n`/`random`), or a coworld; `variant_id` picks the coworld's variant.",
  });

export const RosterPlayer = z
  .strictObject({
    policy_ref: z.string().min(1).optional().meta({
      description: "A policy version id, `name` (its newest version) or `name:vN` / `name:N`.",
    }),
    top_n: z.number().int().min(1).max(1000).optional().meta({
      description:
        "Each episode seats one of the N best-ranked champions of the division's current standings.",
    }),
    random: z.boolean().optional().meta({
      description: "Each episode seats a random competing champion of the division (or league).",
    }),
  })
  .refine(
    (p) =>
      [p.policy_ref !== undefined, p.top_n !== undefined, p.random === true].filter(Boolean)
        .length === 1,
    {
      message: "give exactly one of policy_ref, top_n or random: true",
    },
  );

export const RosterSlot = z
  .strictObject({ player: RosterPlayer, slot: z.number().int().min(0).optional() })
  .meta({ id: "ExperienceRosterSlot" });

export const CreateExperienceRequest = z
  .strictObject({
    target: ExperienceTarget.optional(),
    coworld_id: CoworldId.optional(),
    variant_id: z.string().min(1).optional(),
    roster: z.array(RosterSlot).min(1).max(32),
    num_episodes: z.number().int().min(1).max(MAX_EXPERIENCE_EPISODES),
    execution_backend: z.enum(["process", "docker"]).optional(),
    game_config_overrides: FreeForm.optional(),
    game_config_overlay_secret: GameConfigOverlaySecretName.optional().meta({
      description:
        "A private episode input: the name of a secret of the coworld (its owner's) holding a `coworld.game_config_overlay.v1` document. Its `game_config_overrides` are merged onto the game's config only, when a runner takes the episode, its `secret://coworld/<coworld>/<name>` values replaced by `data:` URLs of those secrets; neither the document nor its values appear in any answer, log or replay of Gauntlet's.",
    }),
    state: EpisodeStateRequest.optional(),
    notes: z.string().max(2000).optional(),
  })
  .meta({ id: "CreateExperienceRequest" });

export const ExperienceRequestRow = z
  .object({
    id: ExperienceRequestId,
    requester_user_id: z.string(),
    coworld_id: z.string(),
    coworld_name: z.string(),
    coworld_version: z.string(),
    variant_id: z.string().nullable(),
    league_id: z.string().nullable(),
    division_id: z.string().nullable(),
    status: ExperienceRequestStatus,
    episode_count: z.number().int().meta({
      description: "Always pending + submitted + running + completed + failed + cancelled.",
    }),
    pending_count: z.number().int(),
    submitted_count: z.number().int(),
    running_count: z.number().int(),
    completed_count: z.number().int(),
    failed_count: z.number().int(),
    cancelled_count: z.number().int(),
    notes: z.string().nullable(),
    error: z.string().nullable(),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
  })
  .meta({ id: "ExperienceRequestRow" });

export const ExperienceRequestDetail = ExperienceRequestRow.extend({
  episodes: z.array(EpisodeRequest),
}).meta({ id: "ExperienceRequestDetail" });

export const ExperienceRequestPage = z
  .object({
    entries: z.array(ExperienceRequestRow),
    total_count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: "ExperienceRequestPage" });

export const ListExperienceRequestsQuery = z.object({
  mine: QueryBoolean.optional(),
  limit: queryInt(1, 200).default(50),
  offset: queryInt(0, 1_000_000).default(0),
});

export const ExperienceRequestIdParams = z.object({ experience_request_id: ExperienceRequestId });

export type CreateExperienceRequest = z.infer<typeof CreateExperienceRequest>;
export type ExperienceRequestRow = z.infer<typeof ExperienceRequestRow>;
export type ExperienceRequestDetail = z.infer<typeof ExperienceRequestDetail>;
export type ExperienceRequestPage = z.infer<typeof ExperienceRequestPage>;
export type ExperienceRequestStatus = z.infer<typeof ExperienceRequestStatus>;
