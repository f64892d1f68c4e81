// GridRush's stateful mode (docs/runtime.md, "Player state"): when the runner gives the game
// COGAME_PLAYER_STATE, each seat with state carries its player's record across episodes and
// policy versions — games played and coins won in all of them. The game reads each seat's `in`
// file (none: a new record) and, once the episode has results, writes the next record to `out`.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface PlayerStats {
  games_played: number;
  coins_total: number;
}

interface SeatFiles {
  in: string | null;
  out: string | null;
}

const NEW: PlayerStats = { games_played: 0, coins_total: 0 };

function seatFiles(env: string | undefined): (SeatFiles | null)[] {
  if (env === undefined || env === "") return [];
  const parsed: unknown = JSON.parse(env);
  return Array.isArray(parsed) ? (parsed as (SeatFiles | null)[]) : [];
}

function readStats(uri: string | null): PlayerStats {
  if (uri === null) return NEW;
  try {
    const value = JSON.parse(readFileSync(fileURLToPath(uri), "utf8")) as Partial<PlayerStats>;
    return {
      games_played: Number(value.games_played ?? 0) || 0,
      coins_total: Number(value.coins_total ?? 0) || 0,
    };
  } catch {
    return NEW;
  }
}

/** Each seat's record at the start (null: the seat keeps none), from COGAME_PLAYER_STATE. */
export function startStats(env: string | undefined): (PlayerStats | null)[] {
  return seatFiles(env).map((files) => (files === null ? null : readStats(files.in)));
}

/** Writes each kept seat's next record: one more game, its coins added. */
export function keepStats(
  env: string | undefined,
  start: readonly (PlayerStats | null)[],
  scores: readonly number[],
): void {
  seatFiles(env).forEach((files, slot) => {
    const before = start[slot];
    if (files?.out == null || !before) return;
    const next: PlayerStats = {
      games_played: before.games_played + 1,
      coins_total: before.coins_total + (scores[slot] ?? 0),
    };
    writeFileSync(fileURLToPath(files.out), JSON.stringify(next));
  });
}
