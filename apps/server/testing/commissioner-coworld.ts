// A test coworld with a commissioner of its own: the example's files plus the commissioner
// fixture program (commissioner-fixture.ts), and the manifest entry that runs it.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { packDirectory } from "../src/blobs/tarball.ts";
import { GRIDRUSH_DIR } from "./test-league.ts";

export const FIXTURE_RUNNABLE_ID = "fixture";

/** How the fixture spoils a round, and what the round's error then says. */
export const MISBEHAVIOURS = {
  crash: /commissioner crashed/,
  garbage: /commissioner malformed/,
  oversized: /commissioner oversized/,
  hang: /commissioner timeout/,
} as const;
export type Misbehaviour = keyof typeof MISBEHAVIOURS;
/** Ways past the protocol's limits that the attack tests use: each test says what it expects. */
export type Abuse = "flood" | "deaf" | "big_display" | "many_episodes";

/** The example's files with the fixture at `commissioner/fixture.ts`. */
export async function commissionerBundle(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), "gauntlet-commissioner-coworld-"));
  try {
    cpSync(GRIDRUSH_DIR, dir, {
      recursive: true,
      filter: (source) => !source.includes("node_modules"),
    });
    cpSync(
      join(import.meta.dirname, "commissioner-fixture.ts"),
      join(dir, "commissioner", "fixture.ts"),
    );
    return await packDirectory(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The manifest's `commissioner[]`: the fixture, told how many rounds to play and which to spoil;
 * `description` (the division's round structure) and `note` (a tag on each episode) are the
 * author's words, for the pages that show them. `image`: an image that runs the fixture (its
 * command), given instead of `run`, so that only a docker runner leases the commissioner.
 */
export function fixtureCommissioner(
  rounds: number,
  misbehave: Record<number, Misbehaviour | Abuse>,
  options: { description?: string; note?: string; image?: string } = {},
) {
  return [
    {
      type: "commissioner",
      id: FIXTURE_RUNNABLE_ID,
      name: "Fixture",
      ...(options.image ? { image: options.image } : { run: ["node", "commissioner/fixture.ts"] }),
      ...(options.description ? { description: options.description } : {}),
      env: {
        FIXTURE_ROUNDS: String(rounds),
        FIXTURE_MISBEHAVE: JSON.stringify(misbehave),
        ...(options.note ? { FIXTURE_NOTE: options.note } : {}),
      },
    },
  ];
}
