import { describe, expect, it } from "vitest";

import { gridrushManifest } from "../../testing/episodes.ts";
import { buildGameConfig } from "./game-config.ts";
import { EpisodeInputError } from "./types.ts";

const manifest = gridrushManifest();

describe("buildGameConfig", () => {
  it("adds a fresh token per slot, different in every episode", () => {
    const first = buildGameConfig(manifest, { turns: 5 }, [{}, {}, {}]);
    const second = buildGameConfig(manifest, { turns: 5 }, [{}, {}, {}]);
    expect(first.tokens).toHaveLength(3);
    expect(new Set([...first.tokens, ...second.tokens]).size).toBe(6);
    expect(first.config).toMatchObject({ turns: 5, tokens: first.tokens });
  });

  it("names the players from the roster where the schema declares names, else from the variant", () => {
    const variant = { players: [{ name: "Player 1" }, { name: "Player 2" }, { name: "Player 3" }] };
    const { config } = buildGameConfig(manifest, variant, [{ displayName: "Ada" }, {}]);
    expect(config.players).toEqual([{ name: "Ada" }, { name: "Player 2" }]);
  });

  it("adds no names when the schema declares none", () => {
    const schema = structuredClone(manifest.game.config_schema) as {
      properties: Record<string, unknown>;
    };
    delete schema.properties.players;
    const plain = { ...manifest, game: { ...manifest.game, config_schema: schema } };
    expect(buildGameConfig(plain, {}, [{ displayName: "Ada" }, {}]).config).not.toHaveProperty(
      "players",
    );
  });

  it("refuses a config that carries tokens, or that breaks the config schema", () => {
    expect(() => buildGameConfig(manifest, { tokens: ["a", "b"] }, [{}, {}])).toThrow(
      EpisodeInputError,
    );
    expect(() => buildGameConfig(manifest, { width: 100 }, [{}, {}])).toThrow(
      /config_schema: \/width must be <= 32/,
    );
  });

  it("refuses a roster outside the bounds of tokens", () => {
    expect(() => buildGameConfig(manifest, {}, [{}, {}, {}, {}, {}])).toThrow(
      "5 players; gridrush seats 2 to 4",
    );
  });
});
