// Every message the platform sends a commissioner, over a whole league (migration, scheduling,
// a round with its episodes), validates against the hosted service's own pydantic models: the
// upstream protocol.py is read from a fetched Metta-AI/coworld at test time (COWORLD_REPO), never
// copied into this repository, and run by python3 with pydantic 2. Skipped where either is absent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  commissionedLeague,
  FAST_COMMISSIONER_ENV,
  untilRound,
} from "../../../testing/commissioned-league.ts";
import { scriptedLauncher } from "../../../testing/scripted-commissioner.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { scriptedRunner, type ScriptedRunner } from "../../../testing/test-league.ts";
import { checkWithUpstream, upstreamMissing } from "../../../testing/upstream-protocol.ts";

if (upstreamMissing) console.warn(`skipping the upstream commissioner models: ${upstreamMissing}`);

const launcher = scriptedLauncher();
let t: TestServer;
let runner: ScriptedRunner;

describe.skipIf(upstreamMissing !== null)(
  "messages to a commissioner, by upstream's models",
  () => {
    beforeAll(async () => {
      t = await startTestServer({
        env: FAST_COMMISSIONER_ENV,
        commissionerLauncher: launcher,
      });
      runner = await scriptedRunner(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    it("validates every message of a league's migration, scheduling and round", async () => {
      const tl = await commissionedLeague(t);
      await untilRound(t, runner, tl, "completed");

      const report = checkWithUpstream(launcher.sent);
      expect(report.refused).toEqual([]);
      for (const type of [
        "league_migration_config_request",
        "league_migration_request",
        "schedule_rounds_request",
        "round_start",
        "episodes_accepted",
        "episode_result",
      ])
        expect(report.checked[type] ?? 0, type).toBeGreaterThan(0);
    });
  },
);
