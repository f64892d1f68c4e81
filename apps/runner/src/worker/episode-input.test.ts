// From a leased job to the executor's input: every runnable runs its own files.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type { JobPlayer, LeasedJob } from "@gauntlet/core";

import { gridrushManifest, newWorkDir, removeWorkDirs } from "../../testing/episodes.ts";
import type { RuntimeKind } from "../episode/runtimes/runtime.ts";
import { BundleCache } from "./bundle-cache.ts";
import { prepareEpisode } from "./episode-input.ts";

afterEach(removeWorkDirs);

const COWORLD_SHA = "c".repeat(64);
const POLICY_SHA = "d".repeat(64);

function seat(position: number, overrides: Partial<JobPlayer>): JobPlayer {
  return {
    position,
    display_name: `seat ${position}`,
    runnable: { run: ["node", "player.ts"], image: null, env: {} },
    bundle_sha256: POLICY_SHA,
    secret_env: {},
    ...overrides,
  };
}

async function prepare(players: JobPlayer[], runtime: RuntimeKind) {
  const jobDir = newWorkDir();
  // Bundles as the cache holds them once extracted.
  for (const sha of [COWORLD_SHA, POLICY_SHA])
    mkdirSync(join(jobDir, "bundles", sha), { recursive: true });
  const job: LeasedJob = {
    job_id: randomUUID(),
    lease_token: "lease",
    attempt: 1,
    lease_expires_at: new Date().toISOString(),
    episode_request_id: "epr_1",
    coworld: { id: "cow_1", name: "gridrush", version: "0.1.0", bundle_sha256: COWORLD_SHA },
    manifest: gridrushManifest(),
    game_config: {},
    players,
    secrets: {},
    deadline_ms: 60_000,
  };
  const cache = new BundleCache(join(jobDir, "bundles"), () => Promise.reject(new Error("none")));
  return { jobDir, prepared: prepareEpisode(job, { cache, jobDir, runtime }) };
}

describe("prepareEpisode", () => {
  it("gives a policy its bundle and the coworld's own player the coworld's files, each its identity", async () => {
    const { jobDir, prepared } = await prepare(
      [
        seat(0, { policy_version_id: "pv_1" }),
        seat(1, { bundle_sha256: null, bundled_player_id: "greedy" }),
      ],
      "sandbox",
    );
    const input = await prepared;
    // What the runner keeps of each (its compile cache) is named by who it is, not by its files.
    expect(input.gameIdentity).toBe(`coworld cow_1 0.1.0 ${COWORLD_SHA} game`);
    expect(input.players.map((p) => p.identity)).toEqual([
      `policy-version pv_1 ${POLICY_SHA}`,
      `coworld cow_1 0.1.0 ${COWORLD_SHA} player greedy`,
    ]);
    expect(input.coworldDir).toBe(join(jobDir, "bundles", COWORLD_SHA));
    expect(input.players.map((p) => p.cwd)).toEqual([
      join(jobDir, "bundles", POLICY_SHA),
      join(jobDir, "bundles", COWORLD_SHA),
    ]);
  });

  // A version with an image and a `run` but no bundle, seated on `process` (an experience
  // request's execution_backend, a play session's opponent), ran in the coworld's directory,
  // with the game's compile cache: it rewrote the game.
  it.for(["sandbox", "process"] as const)(
    "refuses, on the %s runtime, a version with no files of its own",
    async (runtime) => {
      const { prepared } = await prepare(
        [
          seat(0, {}),
          seat(1, {
            bundle_sha256: null,
            runnable: { run: ["node", "-e", ""], image: "img", env: {} },
          }),
        ],
        runtime,
      );
      await expect(prepared).rejects.toThrow(
        "the player in slot 1 has no files of its own (an image and no bundle): it runs on the docker runtime only",
      );
    },
  );

  it("gives such a version, on docker, an empty directory, never the coworld's", async () => {
    const { jobDir, prepared } = await prepare(
      [
        seat(0, {}),
        seat(1, { bundle_sha256: null, runnable: { run: null, image: "img", env: {} } }),
      ],
      "docker",
    );
    const input = await prepared;
    expect(input.players[1]?.cwd).toBe(join(jobDir, "no-files"));
  });
});
