import { describe, expect, it } from "vitest";

import { seededGameConfig } from "./episode-seed.ts";

const takesSeed = {
  game: { config_schema: { type: "object", properties: { seed: { type: "integer" } } } },
};
const noSeed = { game: { config_schema: { type: "object", properties: { turns: {} } } } };

describe("an episode's seed", () => {
  it("is handed to a game whose config takes a seed, so the game plays the seed the episode shows", () => {
    const { seed, gameConfig } = seededGameConfig(takesSeed, { turns: 30 }, () => 1261947309);
    expect(seed).toBe(1261947309);
    expect(gameConfig).toEqual({ turns: 30, seed: 1261947309 });
  });

  it("is the config's own when the config fixes one", () => {
    expect(seededGameConfig(takesSeed, { seed: 7 }, () => 99)).toEqual({
      seed: 7,
      gameConfig: { seed: 7 },
    });
  });

  it("leaves the config of a game that takes no seed as it is", () => {
    expect(seededGameConfig(noSeed, { turns: 30 }, () => 5)).toEqual({
      seed: 5,
      gameConfig: { turns: 30 },
    });
    expect(seededGameConfig(null, {}, () => 5)).toEqual({ seed: 5, gameConfig: {} });
  });
});
