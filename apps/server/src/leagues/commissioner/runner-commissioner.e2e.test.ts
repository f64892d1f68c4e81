// A coworld's own commissioner, a program in the coworld's files, run by a real runner process in
// its sandbox and reached over the runner's relay: it runs its league's rounds (its ranking, by
// player name whatever the scores, becomes the round's results; its tags reach the episodes), and
// a session that crashes, sends garbage, sends a message past 16 MiB or hangs fails only its
// round, after which the league runs again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, RoundDetail, RoundPage } from "@gauntlet/core";

import {
  commissionerBundle,
  FIXTURE_RUNNABLE_ID,
  fixtureCommissioner,
} from "../../../testing/commissioner-coworld.ts";
import { client } from "../../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { createTestLeague, eventually, type TestLeague } from "../../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess | undefined;

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER_TICK_MS: "50",
      GAUNTLET_COMMISSIONER_SCHEDULE_MS: "100",
      GAUNTLET_COMMISSIONER_POLL_MS: "50",
      // A hanging commissioner fails its round after this; a fair round ends well within it.
      GAUNTLET_COMMISSIONER_LIFETIME_MS: "20000",
      GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "15000",
      GAUNTLET_COMMISSIONER_STARTUP_MS: "30000",
    },
  });
  runner = await startRunnerProcess(t, "commissioner-e2e", 2);
});

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

/** The league's settled rounds in detail, once there are `count` of them (one listing a poll). */
async function settledRounds(tl: TestLeague, count: number): Promise<RoundDetail[] | null> {
  const page = await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${tl.league.id}&limit=100`);
  expect(page.status).toBe(200);
  const settled = page.body.entries.filter(
    (r) => r.status === "completed" || r.status === "failed",
  );
  if (settled.length < count) return null;
  const owner = client(t.url, tl.commissioner.token);
  const details = await Promise.all(
    settled.map(async (r) => {
      const detail = await owner.get<RoundDetail>(`/v2/rounds/${r.id}`);
      expect(detail.status, detail.text).toBe(200);
      return detail.body;
    }),
  );
  return details.sort((a, b) => a.round_number - b.round_number);
}

describe("a coworld commissioner on a runner's sandbox", () => {
  it("runs the league's rounds its own way, and a misbehaving session fails only its round", async () => {
    const tl = await createTestLeague(t, {
      bundle: await commissionerBundle(),
      manifest: {
        commissioner: fixtureCommissioner(2, {
          2: "crash",
          3: "garbage",
          4: "oversized",
          5: "hang",
        }),
      },
      commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID },
    });
    const owner = client(t.url, tl.commissioner.token);
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: true });
    // Ada plays the greedy baseline, Zed the random one: the fixture ranks Zed first anyway.
    for (const [name, baseline] of [
      ["Ada", "greedy"],
      ["Zed", "random"],
    ] as const)
      await tl.submit(await tl.addPlayer(name, { baseline }));
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: false });

    const settled = await eventually(
      "six settled rounds",
      () => settledRounds(tl, 6),
      180_000,
    ).catch((error: unknown) => {
      throw new Error(
        `${(error as Error).message}\nrunner:\n${runner?.output().slice(-8000) ?? ""}`,
      );
    });
    const byNumber = new Map(settled.map((r) => [r.round_number, r]));

    // Round 1: the commissioner's ranking, not the scores', is the round's result.
    const first = byNumber.get(1);
    expect(first?.status).toBe("completed");
    expect(
      [...(first?.results ?? [])]
        .sort((a, b) => a.rank - b.rank)
        .map((r) => [r.player?.name, r.score]),
    ).toEqual([
      ["Zed", 100],
      ["Ada", 90],
    ]);
    expect(first?.commissioner).toMatchObject({
      kind: "coworld",
      runnable_id: FIXTURE_RUNNABLE_ID,
    });
    const episodes = (
      await owner.get<{ entries: EpisodeRequest[] }>(
        `/v2/episode-requests?round_id=${first?.id ?? ""}`,
      )
    ).body.entries;
    expect(episodes).toHaveLength(1);
    expect(episodes[0]?.tags).toEqual({ stage: "fixture", round: "1" });
    expect(episodes[0]?.status).toBe("completed");

    // Rounds 2 to 5 failed, each for its own misbehaviour, unscored.
    const failures: [number, RegExp][] = [
      [2, /commissioner crashed/],
      [3, /commissioner malformed/],
      [4, /commissioner oversized/],
      [5, /commissioner timeout/],
    ];
    for (const [number, reason] of failures) {
      const round = byNumber.get(number);
      expect(round?.status, `round ${number}`).toBe("failed");
      expect(round?.error, `round ${number}`).toMatch(reason);
      expect(round?.results).toEqual([]);
    }
    // The league's owner reads what the crashed commissioner printed.
    expect(byNumber.get(2)?.commissioner_log).toMatch(/falling over on purpose/);

    // And the league ran again.
    expect(byNumber.get(6)?.status).toBe("completed");
    expect(byNumber.get(6)?.results.map((r) => r.player?.name)).toContain("Zed");
  }, 240_000);
});
