// The package's manifest against Gauntlet's model of it, and against its own schemas.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { CoworldManifest, rosterBounds } from "@gauntlet/core";

const manifest = CoworldManifest.parse(
  JSON.parse(readFileSync(join(import.meta.dirname, "coworld_manifest.json"), "utf8")),
);

describe("gridrush's coworld_manifest.json", () => {
  it("seats 2 to 4 players", () => {
    expect(rosterBounds(manifest)).toEqual({ min: 2, max: 4 });
  });

  it("certifies with every bundled player", () => {
    expect(new Set(manifest.certification.players.map((seat) => seat.player_id))).toEqual(
      new Set(manifest.player.map((p) => p.id)),
    );
  });

  it("runs every runnable from a file of this package", () => {
    const scripts = [manifest.game.runnable, ...manifest.player, ...(manifest.commissioner ?? [])]
      .map((runnable) => runnable.run)
      .map((run) => (Array.isArray(run) && typeof run[1] === "string" ? run[1] : ""));
    for (const script of scripts)
      expect(() => readFileSync(join(import.meta.dirname, script))).not.toThrow();
  });

  it("declares its king-of-the-hill commissioner, run with the game's image", () => {
    expect(manifest.commissioner).toEqual([
      expect.objectContaining({
        type: "commissioner",
        id: "king-of-the-hill",
        image: manifest.game.runnable.image,
        run: ["node", "commissioner/server.ts"],
      }),
    ]);
  });
});
