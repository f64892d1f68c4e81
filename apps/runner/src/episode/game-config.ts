// Builds the concrete runtime config of one episode (docs/runtime.md, "One episode"): the variant's
// config with overrides, fresh per-slot tokens, and display names where the schema has them.
import { randomBytes } from "node:crypto";

import { rosterBounds, type CoworldManifest } from "@gauntlet/core";

import { compileSchema, schemaProblems } from "./json-schema.ts";
import { EpisodeInputError } from "./types.ts";

/** Whether the config schema declares `players[].name`. */
export function declaresPlayerNames(configSchema: Record<string, unknown>): boolean {
  let node: unknown = configSchema;
  for (const key of ["properties", "players", "items", "properties", "name"]) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === "object" && node !== null;
}

export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

export function buildGameConfig(
  manifest: CoworldManifest,
  gameConfig: Record<string, unknown>,
  players: { displayName?: string | undefined }[],
): { config: Record<string, unknown>; tokens: string[] } {
  if ("tokens" in gameConfig)
    throw new EpisodeInputError("gameConfig must not carry `tokens`: each episode gets fresh ones");
  const bounds = rosterBounds(manifest);
  if (players.length < bounds.min || players.length > bounds.max) {
    throw new EpisodeInputError(
      `${players.length} players; ${manifest.game.name} seats ${bounds.min} to ${bounds.max}`,
    );
  }
  const tokens = players.map(() => newToken());
  const config: Record<string, unknown> = { ...gameConfig, tokens };
  if (declaresPlayerNames(manifest.game.config_schema)) {
    const given = Array.isArray(gameConfig.players) ? (gameConfig.players as unknown[]) : [];
    config.players = players.map((player, slot) => {
      const entry = given[slot];
      const base =
        typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
      const fallback =
        typeof base.name === "string" && base.name !== "" ? base.name : `Player ${slot + 1}`;
      return { ...base, name: player.displayName ?? fallback };
    });
  }
  let validate;
  try {
    validate = compileSchema(manifest.game.config_schema);
  } catch (error) {
    throw new EpisodeInputError(`the config schema does not compile: ${(error as Error).message}`);
  }
  const problems = schemaProblems(validate, config);
  if (problems.length > 0)
    throw new EpisodeInputError(
      `the episode config does not satisfy config_schema: ${problems.slice(0, 5).join("; ")}`,
    );
  return { config, tokens };
}
