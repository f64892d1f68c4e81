// The whole loop on the docker runtime, over real HTTP and a real engine: a runner process
// started with `--runtime docker` plays GridRush episodes queued for docker (certification
// queues its jobs for `process`), from the offline image, to completed; and a player over
// the runner's `--container-memory-mib` fails its episode as out_of_memory, blamed on its seat,
// as the API shows. Skipped, with why, where no engine can start.
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Coworld } from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";
import { startTestServer, type TestServer } from "@gauntlet/server/testing";

import { createEpisode } from "../../server/src/episodes/episodes.ts";
import { buildHostileImage, dockerEngineProblem, leftovers } from "../testing/docker.ts";
import {
  apiClient,
  gridrushDir,
  killRunners,
  manifestOf,
  spawnRunner,
  uploadCoworld,
  waitFor,
} from "./support.ts";

const problem = dockerEngineProblem();
if (problem !== null) console.warn(`runner docker end-to-end skipped: ${problem}`);

let server: TestServer;
let admin: Gauntlet;
let token: string;

/** Queues an episode of `coworld` with `seats` (bundled players) for the docker runtime. */
async function queueOnDocker(coworld: Coworld, seats: string[]): Promise<string> {
  const db = server.server.store.db;
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("is_admin", "=", 1)
    .executeTakeFirstOrThrow();
  const { episodeRequestId } = await db.transaction().execute((trx) =>
    createEpisode(trx, {
      requesterUserId: admin.id,
      purpose: "manual",
      coworld,
      gameConfig: { width: 7, height: 7, turns: 20, coins: 4 },
      participants: seats.map((id, position) => ({
        position,
        bundledPlayerId: id,
        displayName: id,
      })),
      runtime: "docker",
    }),
  );
  return episodeRequestId;
}

async function finished(id: string) {
  return waitFor(`episode ${id}`, async () => {
    const episode = await admin.episodeRequests.get({ episode_request_id: id });
    return episode.status === "completed" || episode.status === "failed" ? episode : null;
  });
}

describe.skipIf(problem !== null)("episodes on a runner with the docker runtime", () => {
  beforeAll(async () => {
    buildHostileImage();
    server = await startTestServer();
    admin = apiClient(server.url, server.adminToken);
    token = await server.machineToken("e2e-docker-runner");
  }, 300_000);

  afterAll(async () => {
    killRunners();
    await server?.close();
  });

  it(
    "plays GridRush in containers, and fails a memory hog's episode as out_of_memory naming its seat",
    { timeout: 300_000 },
    async () => {
      const manifest = manifestOf(gridrushDir);
      const gridrush = await uploadCoworld(admin, gridrushDir);
      const hog = {
        type: "player",
        id: "hog",
        name: "Hog",
        description: "Allocates until its memory limit ends it.",
        image: "gauntlet/test-hostile:latest",
        run: ["node", "/fixtures/hostile.ts"],
        env: { HOSTILE_ROLE: "memory" },
      };
      const hogging = await uploadCoworld(admin, gridrushDir, {
        ...manifest,
        game: { ...manifest.game, name: "gridrush-hogging" },
        player: [...manifest.player, hog],
        certification: {
          ...manifest.certification,
          players: [{ player_id: "greedy" }, { player_id: "hog" }, { player_id: "random" }],
        },
      });
      const workDir = join(server.testStore.dataDir, "..", `runner-docker-${process.pid}`);
      const runner = spawnRunner(server.url, token, [
        "--runtime",
        "docker",
        "--container-memory-mib",
        "128",
        "--work-dir",
        workDir,
      ]);

      const played = await finished(await queueOnDocker(gridrush, ["greedy", "random"]));
      expect(played, runner.output()).toMatchObject({ status: "completed", error_type: null });
      expect(played.scores).toHaveLength(2);

      const hogged = await finished(await queueOnDocker(hogging, ["greedy", "hog"]));
      expect(hogged).toMatchObject({
        status: "failed",
        error_type: "out_of_memory",
        failed_policy_index: 1,
      });

      expect(runner.child.exitCode).toBeNull();
      runner.child.kill("SIGTERM");
      expect((await runner.exited).code).toBe(0);
      expect(leftovers(workDir)).toEqual([]);
    },
  );
});
