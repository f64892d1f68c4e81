import { describe, expect, it } from "vitest";

import { CoworldManifest, cpusOf, rosterBounds } from "./coworld-manifest.ts";

/** A small valid manifest; each case below breaks one known field of a fresh copy. */
function manifest(): Record<string, unknown> & { game: Record<string, unknown> } {
  return {
    $schema: "https://example.org/coworld_manifest_schema.json",
    game: {
      name: "duel",
      version: "1.2.0-rc.1",
      description: "A test game.",
      owner: "someone@example.org",
      docs: { readme: { type: "text", value: "# Duel" } },
      protocols: { player: { type: "uri", value: "https://example.org/protocol.md" } },
      config_schema: {
        type: "object",
        required: ["tokens"],
        properties: {
          tokens: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 3 },
        },
      },
      results_schema: {
        type: "object",
        required: ["scores"],
        properties: { scores: { type: "array", items: { type: "number" } } },
      },
      runnable: {
        type: "game",
        run: ["node", "game.ts"],
        env: { LEVEL: "1" },
        source_url: "https://example.org/src",
      },
    },
    player: [
      { type: "player", id: "a", name: "A", description: "First.", image: "example/a:1" },
      { type: "player", id: "b", name: "B", description: "Second.", run: ["node", "b.ts"] },
    ],
    variants: [{ id: "default", name: "Default", game_config: { size: 5 } }],
    certification: {
      game_config: { size: 3 },
      players: [{ player_id: "a" }, { player_id: "b", initial_params: { debug: true } }],
    },
    tags: ["one", "two", "three"],
    commissioner: [{ id: "league", type: "commissioner", image: "example/c:1" }],
    clients: { player: "clients/player.html" },
  };
}

type Mutable = ReturnType<typeof manifest>;
type Obj = Record<string, unknown>;
const at = (value: unknown, ...path: (string | number)[]): Obj =>
  path.reduce<unknown>((node, key) => (node as Obj)[key as string], value) as Obj;

function issuePaths(value: unknown): string[] {
  const parsed = CoworldManifest.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join("."));
}

const cases: [string, (m: Mutable) => void, string][] = [
  ["a missing game name", (m) => delete m.game.name, "game.name"],
  [
    "a player's CPU limit that is not a quantity",
    (m) => (at(m, "player", 0).resources = { limits: { cpu: "two" } }),
    "player.0.resources.limits.cpu",
  ],
  ["a version that is not semver", (m) => (m.game.version = "1.0"), "game.version"],
  ["an owner of the wrong type", (m) => (m.game.owner = 7), "game.owner"],
  [
    "a readme of an unknown kind",
    (m) => (at(m, "game", "docs").readme = { type: "pdf", value: "x" }),
    "game.docs.readme.type",
  ],
  [
    "a config schema that does not require tokens",
    (m) => (at(m, "game", "config_schema").required = []),
    "game.config_schema.required",
  ],
  [
    "tokens without maxItems",
    (m) => delete at(m, "game", "config_schema", "properties", "tokens").maxItems,
    "game.config_schema.properties.tokens.maxItems",
  ],
  [
    "tokens with a fractional minItems",
    (m) => (at(m, "game", "config_schema", "properties", "tokens").minItems = 1.5),
    "game.config_schema.properties.tokens.minItems",
  ],
  [
    "tokens with maxItems under minItems",
    (m) => (at(m, "game", "config_schema", "properties", "tokens").maxItems = 1),
    "game.config_schema.properties.tokens.maxItems",
  ],
  [
    "tokens that are not strings",
    (m) => (at(m, "game", "config_schema", "properties", "tokens").items = { type: "integer" }),
    "game.config_schema.properties.tokens.items",
  ],
  [
    "tokens that are not an array",
    (m) => (at(m, "game", "config_schema", "properties", "tokens").type = "string"),
    "game.config_schema.properties.tokens.type",
  ],
  [
    "a config schema without tokens",
    (m) => (at(m, "game", "config_schema").properties = {}),
    "game.config_schema.properties.tokens",
  ],
  [
    "a results schema that does not require scores",
    (m) => (at(m, "game", "results_schema").required = ["winner"]),
    "game.results_schema.required",
  ],
  ["a results schema that is an array", (m) => (m.game.results_schema = []), "game.results_schema"],
  [
    "a game runnable of another type",
    (m) => (at(m, "game", "runnable").type = "player"),
    "game.runnable.type",
  ],
  [
    "a game runnable with neither image nor run",
    (m) => delete at(m, "game", "runnable").run,
    "game.runnable.run",
  ],
  [
    "a run argv with a non-string",
    (m) => (at(m, "game", "runnable").run = ["node", 3]),
    "game.runnable.run.1",
  ],
  [
    "an env value that is not a string",
    (m) => (at(m, "game", "runnable").env = { LEVEL: 1 }),
    "game.runnable.env.LEVEL",
  ],
  ["no bundled player", (m) => (m.player = []), "player"],
  [
    "a player without a description",
    (m) => delete at(m, "player", 0).description,
    "player.0.description",
  ],
  ["a player of the game type", (m) => (at(m, "player", 1).type = "game"), "player.1.type"],
  ["a player with neither image nor run", (m) => delete at(m, "player", 0).image, "player.0.run"],
  ["two players with one id", (m) => (at(m, "player", 1).id = "a"), "player.1.id"],
  ["no variant", (m) => (m.variants = []), "variants"],
  ["a variant without a name", (m) => delete at(m, "variants", 0).name, "variants.0.name"],
  [
    "a variant config that carries tokens",
    (m) => (at(m, "variants", 0, "game_config").tokens = ["x", "y"]),
    "variants.0.game_config.tokens",
  ],
  [
    "a certification config that carries tokens",
    (m) => (at(m, "certification", "game_config").tokens = []),
    "certification.game_config.tokens",
  ],
  [
    "a certification seat of an unknown player",
    (m) => (at(m, "certification", "players", 1).player_id = "zed"),
    "certification.players.1.player_id",
  ],
  [
    "a certification roster over the bounds",
    (m) =>
      (at(m, "certification").players = [
        { player_id: "a" },
        { player_id: "a" },
        { player_id: "b" },
        { player_id: "b" },
      ]),
    "certification.players",
  ],
  ["no certification", (m) => delete m.certification, "certification"],
  ["two tags", (m) => (m.tags = ["one", "two"]), "tags"],
  ["an empty tag", (m) => (m.tags = ["one", "two", ""]), "tags.2"],
  ["a role section that is not a list", (m) => (m.reporter = { id: "r" }), "reporter"],
];

describe("CoworldManifest", () => {
  it("parses a valid manifest and keeps the fields it does not know", () => {
    const parsed = CoworldManifest.parse(manifest());
    expect(parsed.game.name).toBe("duel");
    expect(parsed).toMatchObject({
      $schema: "https://example.org/coworld_manifest_schema.json",
      clients: { player: "clients/player.html" },
      game: {
        protocols: { player: { type: "uri" } },
        runnable: { source_url: "https://example.org/src" },
      },
      commissioner: [{ id: "league", type: "commissioner", image: "example/c:1" }],
      certification: {
        players: [{ player_id: "a" }, { player_id: "b", initial_params: { debug: true } }],
      },
    });
  });

  it.each(cases)("rejects %s with an issue at the field", (_name, breakIt, path) => {
    const broken = manifest();
    breakIt(broken);
    expect(issuePaths(broken)).toContain(path);
  });

  it("reads a runnable's CPU limit as CPUs: a number, a string, or millicores", () => {
    expect([1.5, "2", "500m", undefined, 0].map((cpu) => cpusOf({ limits: { cpu } }))).toEqual([
      1.5,
      2,
      0.5,
      null,
      null,
    ]);
  });

  it("reads the roster bounds from the tokens of the config schema", () => {
    expect(rosterBounds(CoworldManifest.parse(manifest()))).toEqual({ min: 2, max: 3 });
  });
});
