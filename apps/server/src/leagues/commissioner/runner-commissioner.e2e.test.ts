// A coworld's own commissioner, a program in the coworld's files, run by a real runner process in
// its sandbox and reached over the runner's relay: it runs its league's rounds (its ranking, by
// player name whatever the scores, becomes the round's results; its tags reach the episodes), and
// a session that crashes, sends garbage, sends a message past 16 MiB or hangs fails only its
// round, after which the league runs again.
import { afterAll, beforeAll, describe, it } from "vitest";

import { commissionerBundle, fixtureCommissioner } from "../../../testing/commissioner-coworld.ts";
import {
  commissionerLeague,
  commissionerServerEnv,
  expectCommissionerRounds,
  settledRounds,
} from "../../../testing/commissioner-league.ts";
import { startRunnerProcess, type RunnerProcess } from "../../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";

let t: TestServer;
let runner: RunnerProcess | undefined;

beforeAll(async () => {
  t = await startTestServer({ env: commissionerServerEnv() });
  runner = await startRunnerProcess(t, "commissioner-e2e", 2);
});

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

describe("a coworld commissioner on a runner's sandbox", () => {
  it("runs the league's rounds its own way, and a misbehaving session fails only its round", async () => {
    const misbehave = { 2: "crash", 3: "garbage", 4: "oversized", 5: "hang" } as const;
    const tl = await commissionerLeague(
      t,
      fixtureCommissioner(2, misbehave),
      await commissionerBundle(),
    );
    const rounds = await settledRounds(
      t,
      tl,
      6,
      180_000,
      () => `runner:\n${runner?.output().slice(-8000) ?? ""}`,
    );
    await expectCommissionerRounds(t, tl, rounds, misbehave, 6);
  }, 240_000);
});
