// The example coworld's own commissioner (examples/coworlds/gridrush/commissioner, king of the
// hill) runs a league through the server's driver: a league whose commissioner_config names the
// manifest's `king-of-the-hill` gets one Hill division, rounds whose episodes are the
// commissioner's duels with its tags, the king ranked first, and a reign that grows across
// rounds through the state the server keeps. The program runs as a real process over a real
// WebSocket (testing/host-commissioner.ts; the sandboxed launcher is the runner's).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Division, EpisodeRequest, RoundDetail } from "@gauntlet/core";

import { untilRound } from "../../testing/commissioned-league.ts";
import { hostLauncher } from "../../testing/host-commissioner.ts";
import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  GRIDRUSH_DIR,
  scriptedRunner,
  type ScriptedRunner,
} from "../../testing/test-league.ts";

const launcher = hostLauncher(GRIDRUSH_DIR, "commissioner/server.ts");
let t: TestServer;
let runner: ScriptedRunner;

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER_TICK_MS: "30",
      GAUNTLET_COMMISSIONER_SCHEDULE_MS: "50",
      GAUNTLET_COMMISSIONER_POLL_MS: "25",
      GAUNTLET_COMMISSIONER_LIFETIME_MS: "8000",
      GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "5000",
    },
    commissionerLauncher: launcher,
  });
  runner = await scriptedRunner(t);
});
afterAll(async () => {
  await t?.close();
});

describe("GridRush's king-of-the-hill commissioner runs a league", () => {
  it("makes the hill, plays duels, ranks the king first and carries the reign between rounds", async () => {
    // The example's own manifest, commissioner section and all.
    const tl = await createTestLeague(t, {
      commissionerConfig: { commissioner_runnable_id: "king-of-the-hill" },
    });
    const api = client(t.url, tl.commissioner.token);
    await api.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: true });
    for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
    await api.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: false });

    const first = await untilRound(t, runner, tl, "completed");
    const divisions = (
      await client(t.url).get<Division[]>(`/v2/divisions?league_id=${tl.league.id}`)
    ).body;
    expect(divisions.map((d) => d.name)).toEqual(["Hill"]);
    // Ada is strongest (the scripted runner scores by strength): she ends as king, first.
    const names = (r: RoundDetail) =>
      [...r.results].sort((a, b) => a.rank - b.rank).map((x) => x.player?.name);
    expect(names(first)[0]).toBe("Ada");
    const meta = (r: RoundDetail) =>
      r.results.find((x) => x.rank === 1)?.result_metadata.commissioner as Record<string, unknown>;
    expect(meta(first)).toMatchObject({ role: "king", reign: 1 });

    const episodes = (
      await client(t.url, tl.commissioner.token).get<{ entries: EpisodeRequest[] }>(
        `/v2/episode-requests?round_id=${first.id}`,
      )
    ).body.entries;
    expect(episodes).toHaveLength(2);
    for (const e of episodes)
      expect(e).toMatchObject({
        tags: expect.objectContaining({ commissioner: "king-of-the-hill" }),
      });

    // The next round reads the state the server kept: Ada defends, her reign is 2.
    const second = await untilRound(
      t,
      runner,
      tl,
      "completed",
      (r) => r.round_number > first.round_number,
    );
    expect(names(second)[0]).toBe("Ada");
    expect(meta(second)).toMatchObject({ role: "king", reign: 2 });
    expect(launcher.opened.map((o) => o.purpose)).toEqual(
      expect.arrayContaining(["migration", "schedule", "round"]),
    );
  });
});
