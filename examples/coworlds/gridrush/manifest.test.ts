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
    const scripts = [manifest.game.runnable, ...manifest.player].map(
      (runnable) => runnable.run?.[1] ?? "",
    );
    for (const script of scripts)
      expect(() => readFileSync(join(import.meta.dirname, script))).not.toThrow();
  });
});
