// A coworld's own commissioner given as an image, run by a runner process with the docker runtime
// (the sandbox's suite: apps/server/src/leagues/commissioner/runner-commissioner.e2e.test.ts,
// whose helpers it shares): it runs its league's rounds (its ranking becomes the round's results,
// its tags reach the episodes), a session that crashes or hangs fails only its round, after which
// the league runs again, and no container or network is left. The rounds' episodes are a sandbox
// runner's (a docker runner plays only episodes queued for docker). Skipped, with why, where no
// engine can start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  fixtureCommissioner,
  startRunnerProcess,
  startTestServer,
  type RunnerProcess,
  type TestServer,
} from "@gauntlet/server/testing";
import {
  commissionerLeague,
  commissionerServerEnv,
  expectCommissionerRounds,
  settledRounds,
} from "@gauntlet/server/testing/commissioner-league";

import { buildCommissionerImage, dockerEngineProblem, leftovers } from "../testing/docker.ts";

const problem = dockerEngineProblem();
if (problem !== null) console.warn(`runner commissioner docker end-to-end skipped: ${problem}`);

let t: TestServer;
let image: string;
let docker: RunnerProcess | undefined;
let sandbox: RunnerProcess | undefined;

describe.skipIf(problem !== null)("a coworld commissioner on a runner's docker runtime", () => {
  beforeAll(async () => {
    image = buildCommissionerImage();
    t = await startTestServer({ env: commissionerServerEnv() });
    docker = await startRunnerProcess(t, "commissioner-docker-e2e", 1, [t.url], {
      args: ["--runtime", "docker"],
    });
    sandbox = await startRunnerProcess(t, "commissioner-episodes-e2e", 2);
  }, 300_000);

  afterAll(async () => {
    await docker?.stop();
    await sandbox?.stop();
    await t?.close();
  });

  it("runs the league's rounds its own way, and a crash or a hang fails only its round", async () => {
    const misbehave = { 2: "crash", 3: "hang" } as const;
    const tl = await commissionerLeague(t, fixtureCommissioner(2, misbehave, { image }));
    const rounds = await settledRounds(
      t,
      tl,
      4,
      120_000,
      () =>
        `docker runner:\n${docker?.output().slice(-6000) ?? ""}\nsandbox runner:\n${sandbox?.output().slice(-3000) ?? ""}`,
    );
    await expectCommissionerRounds(t, tl, rounds, misbehave, 4);
    // Sessions go on (the commissioner is asked for rounds again): a stopped runner ends them.
    const workDir = docker?.workDir ?? "";
    await docker?.stop();
    expect(leftovers(workDir)).toEqual([]);
  }, 180_000);
});
