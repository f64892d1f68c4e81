// League and Division, with the request bodies of the league endpoints.
import { z } from "zod";

import { DivisionId, GameId, LeagueId, ModId } from "../ids.ts";
import { FreeForm, StoredFreeForm, Timestamp } from "./common.ts";
import { Game, Mod } from "./game.ts";

export const League = z
  .object({
    id: LeagueId,
    name: z.string(),
    commissioner_key: z.string(),
    game: Game,
    mod: Mod.nullable(),
    created_at: Timestamp,
    description: z.string().nullable(),
    commissioner_config: FreeForm,
    commissioner_migration_version: z.string(),
    rounds_paused_at: Timestamp.nullable(),
    settings: FreeForm,
    filler_policy_version_ids: z.array(z.uuid()),
    rules: FreeForm,
    public: z.boolean().default(false),
    hidden: z.boolean().default(false),
    is_game_of_week: z.boolean().default(false),
    disabled_at: Timestamp.nullable(),
    notes: z.string().nullable(),
    commissioner_user_id: z
      .string()
      .meta({ description: "The user who commissions this league (Gauntlet)." }),
  })
  .meta({ id: "League" });

export const ChangelogEntry = z.object({
  date: z.string(),
  title: z.string(),
  detail: z.string(),
  category: z.string(),
});

export const CommissionerDescription = z
  .object({
    round_schedule: z.string().optional(),
    round_structure: z.string().optional(),
    leaderboard_rules: z.string().optional(),
    next_round: z.string().optional(),
    scoring_mechanics: z.string().optional(),
    changelog: z.array(ChangelogEntry).optional(),
  })
  .meta({ id: "CommissionerDescription" });

export const DivisionType = z.enum(["competition", "staging"]);

export const Division = z
  .object({
    id: DivisionId,
    name: z.string(),
    level: z.number().int(),
    league: League,
    created_at: Timestamp,
    type: DivisionType,
    description: z.string().nullable(),
    hidden: z.boolean().default(false),
    archived_at: Timestamp.nullable(),
    leaderboard_config: FreeForm,
    round_schedule: FreeForm,
    notes: z.string().nullable(),
    commissioner_description: CommissionerDescription,
  })
  .meta({ id: "Division" });

const Name = z.string().trim().min(1).max(200);
const Text = z.string().max(20_000);

export const DivisionInput = z
  .strictObject({
    id: DivisionId.optional().meta({
      description: "Keep this division (update it); omit to create one.",
    }),
    name: Name,
    level: z.number().int().min(0).max(1000),
    type: DivisionType.default("competition"),
    description: Text.nullable().optional(),
    hidden: z.boolean().optional(),
    leaderboard_config: StoredFreeForm.optional(),
    round_schedule: StoredFreeForm.optional(),
    notes: Text.nullable().optional(),
    commissioner_description: CommissionerDescription.optional(),
  })
  .meta({ id: "DivisionInput" });

export const ReplaceDivisionsRequest = z.array(DivisionInput).max(100).meta({
  id: "ReplaceDivisionsRequest",
  description: "The whole division set. Divisions left out are archived, never deleted.",
});

export const CreateLeagueRequest = z
  .strictObject({
    name: Name,
    game_id: GameId,
    mod_id: ModId.nullable().optional(),
    description: Text.nullable().optional(),
    commissioner_key: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,63}$/)
      .default("ladder"),
    commissioner_config: StoredFreeForm.optional(),
    settings: StoredFreeForm.optional(),
    rules: StoredFreeForm.optional(),
    public: z.boolean().default(false),
    hidden: z.boolean().default(false),
    notes: Text.nullable().optional(),
    divisions: z.array(DivisionInput).max(100).optional(),
  })
  .meta({ id: "CreateLeagueRequest" });

export const UpdateLeagueRequest = z
  .strictObject({
    name: Name.optional(),
    description: Text.nullable().optional(),
    public: z.boolean().optional(),
    hidden: z.boolean().optional(),
    notes: Text.nullable().optional(),
    is_game_of_week: z.boolean().optional().meta({ description: "Admins only." }),
  })
  .meta({ id: "UpdateLeagueRequest" });

export const LeagueLocks = z
  .object({ submissions_locked: z.boolean(), game_version_locked: z.boolean() })
  .meta({ id: "LeagueLocks" });

export const UpdateLeagueLocksRequest = z
  .strictObject({
    submissions_locked: z.boolean().optional(),
    game_version_locked: z.boolean().optional(),
  })
  .meta({ id: "UpdateLeagueLocksRequest" });

export const RoundsPausedRequest = z
  .strictObject({ paused: z.boolean() })
  .meta({ id: "RoundsPausedRequest" });

export const DivisionLadderEntry = z
  .object({
    id: DivisionId,
    name: z.string(),
    level: z.number().int(),
    member_count: z.number().int(),
  })
  .meta({ id: "DivisionLadderEntry" });

export const LeagueIdParams = z.object({ league_id: LeagueId });
export const DivisionIdParams = z.object({ division_id: DivisionId });

export type League = z.infer<typeof League>;
export type Division = z.infer<typeof Division>;
export type DivisionInput = z.infer<typeof DivisionInput>;
export type CommissionerDescription = z.infer<typeof CommissionerDescription>;
export type DivisionLadderEntry = z.infer<typeof DivisionLadderEntry>;
