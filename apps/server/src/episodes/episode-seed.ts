// The one seed an episode shows is the one its game plays: a config that fixes `seed` gives it,
// and a game whose config schema takes a `seed` is handed the episode's own (else it drew
// another, and the episode's `seed` named a game nobody played). A game that takes no seed is
// left as it is; its episode's seed is only a record.
import { randomInt } from "node:crypto";

/** Whether the config schema declares an integer (or number) `seed` property. */
function takesSeed(configSchema: unknown): boolean {
  if (typeof configSchema !== "object" || configSchema === null) return false;
  const properties = (configSchema as Record<string, unknown>).properties;
  if (typeof properties !== "object" || properties === null) return false;
  const seed = (properties as Record<string, unknown>).seed;
  if (typeof seed !== "object" || seed === null) return false;
  const type = (seed as Record<string, unknown>).type;
  const types = Array.isArray(type) ? type : [type];
  return types.includes("integer") || types.includes("number");
}

/**
 * The episode's seed and the game config it runs with. `manifest` is the coworld's (its
 * `game.config_schema` says whether the game takes a seed).
 */
export function seededGameConfig(
  manifest: unknown,
  gameConfig: Record<string, unknown>,
  draw: () => number = () => randomInt(0, 2 ** 31 - 1),
): { seed: number; gameConfig: Record<string, unknown> } {
  const given = gameConfig.seed;
  if (typeof given === "number" && Number.isSafeInteger(given)) return { seed: given, gameConfig };
  const seed = draw();
  const game =
    typeof manifest === "object" && manifest !== null
      ? (manifest as Record<string, unknown>).game
      : undefined;
  const schema =
    typeof game === "object" && game !== null
      ? (game as Record<string, unknown>).config_schema
      : undefined;
  return takesSeed(schema) && given === undefined
    ? { seed, gameConfig: { ...gameConfig, seed } }
    : { seed, gameConfig };
}
