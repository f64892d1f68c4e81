import { describe, expect, it } from "vitest";

import { parseConfig } from "./config.ts";

describe("GridRush config", () => {
  it("fills defaults and player names", () => {
    const config = parseConfig(JSON.stringify({ tokens: ["a", "b"], players: [{ name: "Ada" }] }));
    expect(config).toMatchObject({
      width: 9,
      height: 9,
      turns: 40,
      coins: 5,
      seed: null,
      names: ["Ada", "Player 2"],
    });
  });

  it("refuses a roster outside 2 to 4 tokens", () => {
    expect(() => parseConfig(JSON.stringify({ tokens: ["a"] }))).toThrow(/tokens/);
    expect(() => parseConfig(JSON.stringify({ tokens: ["a", "b", "c", "d", "e"] }))).toThrow(
      /tokens/,
    );
  });

  it("names the field that is out of range", () => {
    expect(() => parseConfig(JSON.stringify({ tokens: ["a", "b"], width: 100 }))).toThrow(
      /config\.width/,
    );
  });
});
