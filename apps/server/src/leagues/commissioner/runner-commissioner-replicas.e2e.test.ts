// A coworld commissioner's session across replicas: two replicas share one store and one Redis of
// the test's own; only the first runs league play (its driver opens the commissioner's sessions),
// and the runner (a real process, its sandbox) knows only the second, so its relay socket reaches
// the replica that does not run the session. The messages meet over the bus and the round runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { RoundDetail, RoundPage } from "@gauntlet/core";

import {
  commissionerBundle,
  FIXTURE_RUNNABLE_ID,
  fixtureCommissioner,
} from "../../../testing/commissioner-coworld.ts";
import { client } from "../../../testing/http.ts";
import { startRedisProcess, type RedisProcess } from "../../../testing/redis-process.ts";
import { startRunnerProcess, type RunnerProcess } from "../../../testing/runner-process.ts";
import { redisReplicaEnv } from "../../../testing/shared-store-replicas.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../../testing/test-league.ts";
import { createTestStore, type TestStore } from "../../../testing/test-store.ts";

let redis: RedisProcess;
let shared: TestStore;
let a: TestServer;
let b: TestServer;
let runner: RunnerProcess | undefined;

beforeAll(async () => {
  redis = await startRedisProcess();
  shared = await createTestStore();
  const env = redisReplicaEnv(redis.url);
  a = await startTestServer({
    testStore: shared,
    env: {
      ...env,
      GAUNTLET_SCHEDULER: "on",
      GAUNTLET_SCHEDULER_TICK_MS: "50",
      GAUNTLET_COMMISSIONER_SCHEDULE_MS: "100",
      GAUNTLET_COMMISSIONER_POLL_MS: "50",
      GAUNTLET_COMMISSIONER_STARTUP_MS: "30000",
    },
  });
  // Its scheduler off: no commissioner session runs here, only the runner's side of one.
  b = await startTestServer({
    testStore: { ...shared, store: { ...shared.store, close: async () => undefined } },
    env,
  });
  runner = await startRunnerProcess(b, "commissioner-replicas", 2);
}, 120_000);

// The runner first, while the replica it talks to is up (it gives back what it holds); a server
// closing first waited for the runner's open connections (CI: past 60 s beside another worker).
afterAll(async () => {
  await runner?.stop();
  await b?.close();
  await a?.close();
  await shared?.cleanup();
  await redis?.kill();
}, 120_000);

describe("a commissioner's session when its runner reached another replica", () => {
  it("runs the round over the bus", async () => {
    const tl = await createTestLeague(a, {
      bundle: await commissionerBundle(),
      manifest: { commissioner: fixtureCommissioner(1, {}) },
      commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID },
    });
    const owner = client(a.url, tl.commissioner.token);
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: true });
    for (const name of ["Ada", "Zed"]) await tl.submit(await tl.addPlayer(name));
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: false });

    const round = await eventually(
      "a settled round",
      async () => {
        const page = (
          await client(b.url).get<RoundPage>(`/v2/rounds?league_id=${tl.league.id}&limit=10`)
        ).body;
        const settled = page.entries.find((r) => r.status === "completed" || r.status === "failed");
        return settled ? (await owner.get<RoundDetail>(`/v2/rounds/${settled.id}`)).body : null;
      },
      120_000,
    );
    expect(round.status, `${round.error ?? ""}\n${runner?.output().slice(-4000) ?? ""}`).toBe(
      "completed",
    );
    expect([...round.results].sort((x, y) => x.rank - y.rank).map((r) => r.player?.name)).toEqual([
      "Zed",
      "Ada",
    ]);
  }, 150_000);
});
