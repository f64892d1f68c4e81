// Reads the runtime config the runner wrote (COGAME_CONFIG_URI) and fills the defaults of
// coworld_manifest.json's config_schema. The runner validates against that schema first; these
// checks keep the game safe when it is started by hand.

export interface GameConfig {
  tokens: string[];
  names: string[];
  width: number;
  height: number;
  turns: number;
  coins: number;
  seed: number | null;
  turnTimeoutMs: number;
  connectTimeoutMs: number;
}

type Json = Record<string, unknown>;

function integer(config: Json, key: string, fallback: number, min: number, max: number): number {
  const value = config[key] ?? fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`config.${key} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function parseConfig(text: string): GameConfig {
  const config: unknown = JSON.parse(text);
  if (typeof config !== "object" || config === null || Array.isArray(config))
    throw new Error("the config must be a JSON object");
  const json = config as Json;
  const tokens = json.tokens;
  if (
    !Array.isArray(tokens) ||
    tokens.length < 2 ||
    tokens.length > 4 ||
    !tokens.every((t) => typeof t === "string" && t !== "")
  ) {
    throw new Error("config.tokens must hold 2 to 4 non-empty strings, one per slot");
  }
  const players = Array.isArray(json.players) ? (json.players as unknown[]) : [];
  const names = tokens.map((_, slot) => {
    const entry = players[slot];
    const name = typeof entry === "object" && entry !== null ? (entry as Json).name : undefined;
    return typeof name === "string" && name !== "" ? name : `Player ${slot + 1}`;
  });
  const seed = json.seed;
  if (
    seed !== undefined &&
    seed !== null &&
    !(typeof seed === "number" && Number.isInteger(seed))
  ) {
    throw new Error("config.seed must be an integer");
  }
  return {
    tokens: tokens as string[],
    names,
    width: integer(json, "width", 9, 3, 32),
    height: integer(json, "height", 9, 3, 32),
    turns: integer(json, "turns", 40, 1, 1000),
    coins: integer(json, "coins", 5, 1, 64),
    seed: typeof seed === "number" ? seed : null,
    turnTimeoutMs: integer(json, "turn_timeout_ms", 200, 10, 10_000),
    connectTimeoutMs: integer(json, "connect_timeout_ms", 10_000, 100, 600_000),
  };
}
