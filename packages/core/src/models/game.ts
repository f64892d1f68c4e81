// Game and Mod.
import { z } from "zod";

import { GameId, ModId } from "../ids.ts";
import { Timestamp } from "./common.ts";

export const Game = z
  .object({
    id: z.string(),
    name: z.string(),
    owner_user_id: z.string(),
    created_at: Timestamp,
    coworld_name: z.string().nullable(),
    coworld_id: z.string().nullable(),
    description: z.string().nullable(),
    notes: z.string().nullable(),
  })
  .meta({ id: "Game" });

export const Mod = z
  .object({
    id: z.string(),
    name: z.string(),
    owner_user_id: z.string(),
    game: Game,
    created_at: Timestamp,
    description: z.string().nullable(),
    notes: z.string().nullable(),
  })
  .meta({ id: "Mod" });

const Name = z.string().trim().min(1).max(200);

export const CreateGameRequest = z
  .strictObject({
    name: Name,
    description: z.string().max(10_000).nullable().optional(),
    notes: z.string().max(10_000).nullable().optional(),
    coworld_name: z.string().max(200).nullable().optional(),
  })
  .meta({ id: "CreateGameRequest" });

export const CreateModRequest = z
  .strictObject({
    game_id: GameId,
    name: Name,
    description: z.string().max(10_000).nullable().optional(),
    notes: z.string().max(10_000).nullable().optional(),
  })
  .meta({ id: "CreateModRequest" });

export const GameIdParams = z.object({ game_id: GameId });
export const ModIdParams = z.object({ mod_id: ModId });

export type Game = z.infer<typeof Game>;
export type Mod = z.infer<typeof Mod>;
