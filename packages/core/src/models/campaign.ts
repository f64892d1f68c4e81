// The campaign board of a league (docs/api.md, "The campaign board in short").
import { z } from "zod";

import { LeagueId } from "../ids.ts";
import { Timestamp } from "./common.ts";

export const CampaignGeometry = z
  .object({ width: z.number().int(), height: z.number().int() })
  .meta({
    id: "CampaignGeometry",
    description: "Cells per row and rows; read from the league's `settings.campaign_board`.",
  });

export const CampaignCell = z
  .object({
    x: z.number().int(),
    y: z.number().int(),
    owner_player_id: z.string().nullable(),
    captured_round_id: z.string().nullable(),
    captured_at: Timestamp.nullable(),
  })
  .meta({ id: "CampaignCell" });

export const CampaignHistoryEntry = z
  .object({
    id: z.string(),
    round_id: z.string(),
    player_id: z.string().meta({ description: "The winner of the settled round." }),
    x: z.number().int().nullable().meta({
      description: "The captured cell; null when the winner already held the whole board.",
    }),
    y: z.number().int().nullable(),
    previous_owner_player_id: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "CampaignHistoryEntry" });

export const CampaignTerritory = z
  .object({
    player_id: z.string(),
    player_name: z
      .string()
      .nullable()
      .meta({ description: "The player's name; null when the player no longer exists." }),
    cells: z.number().int(),
  })
  .meta({ id: "CampaignTerritory", description: "The cells one player holds." });

export const CampaignBoard = z
  .object({
    league_id: LeagueId,
    geometry: CampaignGeometry,
    cells: z.array(CampaignCell),
    territory: z.array(CampaignTerritory).meta({
      description:
        "Cells held per player, most first (ties by name, players that no longer exist last).",
    }),
    history: z.array(CampaignHistoryEntry).meta({ description: "Newest first." }),
    updated_at: Timestamp,
  })
  .meta({ id: "CampaignBoard" });

export const MigrateBoardReport = z
  .object({
    league_id: LeagueId,
    dry_run: z.boolean(),
    from: CampaignGeometry,
    to: CampaignGeometry,
    cells_before: z.number().int(),
    cells_after: z.number().int(),
    territory_before: z
      .record(z.string(), z.number().int())
      .meta({ description: "Cells owned per player id." }),
    territory_after: z.record(z.string(), z.number().int()),
    history_entries: z.number().int(),
    applied: z
      .boolean()
      .meta({ description: "Whether the board was re-carved (false for a dry run)." }),
  })
  .meta({ id: "MigrateBoardReport" });

export type CampaignGeometry = z.infer<typeof CampaignGeometry>;
export type CampaignCell = z.infer<typeof CampaignCell>;
export type CampaignHistoryEntry = z.infer<typeof CampaignHistoryEntry>;
export type CampaignTerritory = z.infer<typeof CampaignTerritory>;
export type CampaignBoard = z.infer<typeof CampaignBoard>;
export type MigrateBoardReport = z.infer<typeof MigrateBoardReport>;
