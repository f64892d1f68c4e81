// What a hostile coworld commissioner, run by a real runner in its sandbox, may leave on the
// league: a round_display of megabytes is not kept (every rounds listing, public ones too, would
// carry it; the round's log says why), and a round's episodes stay within the league's
// max_episodes_per_round as the built-in rounds' do (the rest are rejected to the commissioner).
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
import { createTestLeague, eventually } from "../../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess | undefined;

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER_TICK_MS: "50",
      GAUNTLET_COMMISSIONER_SCHEDULE_MS: "100",
      GAUNTLET_COMMISSIONER_POLL_MS: "50",
      GAUNTLET_COMMISSIONER_LIFETIME_MS: "20000",
      GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "15000",
      GAUNTLET_COMMISSIONER_STARTUP_MS: "30000",
    },
  });
  runner = await startRunnerProcess(t, "commissioner-bounds", 2);
});

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

describe("a commissioner past the league's bounds", () => {
  it("keeps no megabyte round_display and no more episodes than max_episodes_per_round", async () => {
    const tl = await createTestLeague(t, {
      bundle: await commissionerBundle(),
      manifest: {
        commissioner: fixtureCommissioner(2, { 1: "big_display", 2: "many_episodes" }),
      },
      commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID },
      settings: { max_episodes_per_round: 3 },
    });
    const owner = client(t.url, tl.commissioner.token);
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: true });
    for (const [name, baseline] of [
      ["Ada", "greedy"],
      ["Zed", "random"],
    ] as const)
      await tl.submit(await tl.addPlayer(name, { baseline }));
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: false });

    const listing = await eventually(
      "two settled rounds",
      async () => {
        const page = await client(t.url).get<RoundPage>(
          `/v2/rounds?league_id=${tl.league.id}&limit=100`,
        );
        const settled = page.body.entries.filter(
          (r) => r.status !== "pending" && r.status !== "running",
        );
        return settled.length >= 2 ? page : null;
      },
      120_000,
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${runner?.output().slice(-4000) ?? ""}`);
    });
    const byNumber = new Map(listing.body.entries.map((r) => [r.round_number, r]));

    // Round 1: completed, its 12 MiB display not kept and not in anyone's listing.
    expect(byNumber.get(1)?.status).toBe("completed");
    expect(listing.text.length).toBeLessThan(1024 * 1024);
    const first = await owner.get<RoundDetail>(`/v2/rounds/${byNumber.get(1)?.id ?? ""}`);
    expect(first.body.commissioner_log).toMatch(/round_display/);

    // Round 2: ten episodes asked for, three queued.
    expect(byNumber.get(2)?.status).toBe("completed");
    const episodes = await owner.get<{ entries: EpisodeRequest[] }>(
      `/v2/episode-requests?round_id=${byNumber.get(2)?.id ?? ""}`,
    );
    expect(episodes.body.entries).toHaveLength(3);
  }, 180_000);
});
