// Fault: Redis (shared budgets and the live-events bus) killed and restarted under load.
// Budgets fail open: no request fails while Redis is away, and live events flow
// again once it is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually, type TestLeague } from "../../testing/test-league.ts";
import { openSocket } from "../../testing/test-socket.ts";
import { startOwnRedis, type OwnRedis } from "./redis-server.ts";

describe("Redis killed and restarted under load", () => {
  let redis: OwnRedis;
  let t: TestServer;
  let tl: TestLeague;
  beforeAll(async () => {
    redis = await startOwnRedis();
    t = await startTestServer({
      config: { redisUrl: redis.url },
      env: { REDIS_URL: redis.url, GAUNTLET_SCHEDULER: "off" },
    });
    tl = await createTestLeague(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it("answers every request while Redis is away and delivers events again after it returns", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const statuses: Record<string, number> = {};
    let stop = false;
    const load = (async () => {
      while (!stop) {
        // No answer at all is counted by its reason, which the statuses below then show.
        const res = await api
          .get(`/v2/leagues/${tl.league.id}`)
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        const key = res instanceof Error ? `failed: ${res.message}` : String(res.status);
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    })();
    await eventually(
      "some requests before the kill",
      async () => (statuses["200"] ?? 0) >= 20,
      60_000,
    );
    await redis.kill();
    const atKill = statuses["200"] ?? 0;
    await eventually(
      "requests answered while Redis is down",
      async () => (statuses["200"] ?? 0) >= atKill + 50,
      60_000,
    );
    await redis.start();
    const afterRestart = statuses["200"] ?? 0;
    await eventually(
      "requests answered after Redis returned",
      async () => (statuses["200"] ?? 0) >= afterRestart + 20,
      60_000,
    );
    stop = true;
    await load;
    process.stdout.write(
      `redis fault: ${Object.values(statuses).reduce((a, b) => a + b, 0)} requests across the kill and restart, by status ${JSON.stringify(statuses)}\n`,
    );
    expect(Object.keys(statuses)).toEqual(["200"]);

    // Events resume: a watcher subscribed after the restart sees a newly created player's submission.
    const socket = openSocket(t.url, tl.commissioner.token);
    await socket.opened;
    const { seq } = await eventually(
      "a subscription once the bus reconnects",
      // Unanswered while the bus reconnects: ask again. Any other failure ends the test.
      () =>
        socket.subscribe([`league:${tl.league.id}`]).catch((error: unknown) => {
          if (error instanceof Error && error.message.startsWith("no matching message"))
            return null;
          throw error;
        }),
      60_000,
    );
    const player = await tl.addPlayer("AfterRestart");
    await tl.submit(player);
    const seen = await socket.next((m) => typeof m.seq === "number" && m.seq > seq, 60_000);
    expect(seen).toBeTruthy();
    socket.close();
  }, 300_000);
});
