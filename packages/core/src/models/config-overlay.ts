// Private episode inputs (docs/api.md, "Private episode inputs"): a coworld secret holding a
// `coworld.game_config_overlay.v1` document, named by an experience request or a commissioner's
// reserved episode tag, and merged onto the game's config only when a runner takes the episode.
import { z } from "zod";

/** The reserved episode tag by which a commissioner names an overlay secret. */
export const CONFIG_OVERLAY_TAG = "coworld_config_overlay_secret";

export const GAME_CONFIG_OVERLAY_FORMAT = "coworld.game_config_overlay.v1";

/** A coworld secret's name (as the secrets routes take it). */
export const GameConfigOverlaySecretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "a coworld secret's name");

/** The document the secret holds. Its values may be `secret://coworld/<coworld>/<name>`. */
export const GameConfigOverlayDocument = z.object({
  format: z.literal(GAME_CONFIG_OVERLAY_FORMAT),
  game_config_overrides: z.record(z.string(), z.unknown()),
});
export type GameConfigOverlayDocument = z.infer<typeof GameConfigOverlayDocument>;
