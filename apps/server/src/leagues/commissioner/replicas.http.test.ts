// Two replicas on one store, both running the scheduler with a commissioner launcher of their own:
// each round of a commissioner-run league is run by exactly one of them (the round's lease), and
// the league still completes its rounds with its commissioner's ranking.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { commissionedLeague, untilRound } from "../../../testing/commissioned-league.ts";
import { scriptedLauncher } from "../../../testing/scripted-commissioner.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { scriptedRunner, type ScriptedRunner } from "../../../testing/test-league.ts";
import { createTestStore, type TestStore } from "../../../testing/test-store.ts";

const env = {
  GAUNTLET_SCHEDULER_TICK_MS: "20",
  GAUNTLET_COMMISSIONER_SCHEDULE_MS: "20",
  GAUNTLET_COMMISSIONER_POLL_MS: "25",
  GAUNTLET_COMMISSIONER_LIFETIME_MS: "4000",
  GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "2000",
};
const launchers = [scriptedLauncher(), scriptedLauncher()] as const;
let shared: TestStore;
let a: TestServer;
let b: TestServer;
let runner: ScriptedRunner;

beforeAll(async () => {
  shared = await createTestStore();
  a = await startTestServer({ testStore: shared, env, commissionerLauncher: launchers[0] });
  // The second replica shares the first one's store object; only the first closes it.
  b = await startTestServer({
    testStore: { ...shared, store: { ...shared.store, close: async () => undefined } },
    env,
    commissionerLauncher: launchers[1],
  });
  runner = await scriptedRunner(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await shared?.cleanup();
});

describe("a commissioner-run league on two replicas", () => {
  it("runs each round on exactly one replica", async () => {
    const leagues = [await commissionedLeague(a), await commissionedLeague(a)];
    const rounds = [];
    for (const tl of leagues) rounds.push(await untilRound(a, runner, tl, "completed"));

    const sessions = launchers.flatMap((l) => l.opened.filter((o) => o.purpose === "round"));
    for (const round of rounds) {
      expect(round.results.map((r) => r.player?.name)).toEqual(["Cy", "Bo", "Ada"]);
      const runs = sessions.filter((s) => s.roundId === round.id);
      expect(runs, `sessions of round ${round.id}`).toHaveLength(1);
    }
    // Both replicas took part in running the leagues (scheduling, migration or rounds).
    for (const l of launchers) expect(l.opened.length).toBeGreaterThan(0);
  });
});
