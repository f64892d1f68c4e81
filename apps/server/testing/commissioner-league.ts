// The end-to-end run of a coworld's commissioner on a real runner, shared by the runtimes' suites
// (the sandbox's in apps/server, docker's in apps/runner): a league of the commissioner fixture
// (commissioner-coworld.ts) with two players, its settled rounds, and what every runtime must show
// of them.
import { expect } from "vitest";

import type { EpisodeRequest, RoundDetail, RoundPage } from "@gauntlet/core";

import type { Env } from "../src/config.ts";
import {
  FIXTURE_RUNNABLE_ID,
  MISBEHAVIOURS,
  type fixtureCommissioner,
  type Misbehaviour,
} from "./commissioner-coworld.ts";
import { client } from "./http.ts";
import type { TestServer } from "./start-server.ts";
import { createTestLeague, eventually, type TestLeague } from "./test-league.ts";

/**
 * A server's settings for these runs: the scheduler and the commissioner's sessions quick, and a
 * session's whole life `lifetimeMs` (a hanging commissioner fails its round after it; a fair round,
 * one short episode, ends well within it).
 */
export function commissionerServerEnv(lifetimeMs = 8_000): Env {
  return {
    GAUNTLET_SCHEDULER_TICK_MS: "50",
    GAUNTLET_COMMISSIONER_SCHEDULE_MS: "100",
    GAUNTLET_COMMISSIONER_POLL_MS: "50",
    GAUNTLET_COMMISSIONER_LIFETIME_MS: String(lifetimeMs),
    GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: String(lifetimeMs),
    GAUNTLET_COMMISSIONER_STARTUP_MS: "30000",
  };
}

/**
 * A league run by `commissioner` (the manifest's `commissioner[]`), with Ada playing the greedy
 * baseline and Zed the random one, both submitted before its first round.
 */
export async function commissionerLeague(
  t: TestServer,
  commissioner: ReturnType<typeof fixtureCommissioner>,
  bundle?: Buffer,
  settings?: Record<string, unknown>,
): Promise<TestLeague> {
  const tl = await createTestLeague(t, {
    ...(bundle ? { bundle } : {}),
    ...(settings ? { settings } : {}),
    manifest: { commissioner },
    commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID },
  });
  const owner = client(t.url, tl.commissioner.token);
  await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: true });
  for (const [name, baseline] of [
    ["Ada", "greedy"],
    ["Zed", "random"],
  ] as const)
    await tl.submit(await tl.addPlayer(name, { baseline }));
  await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: false });
  return tl;
}

/**
 * The league's rounds in detail by number, once `count` have settled: the listing is polled (a
 * round's detail is fetched once, at the end: polling each would spend the test's request
 * budget). A timeout's message ends with `context()` (the runners' output).
 */
export async function settledRounds(
  t: TestServer,
  tl: TestLeague,
  count: number,
  timeoutMs: number,
  context: () => string,
): Promise<Map<number, RoundDetail>> {
  const settled = await eventually(
    `${count} settled rounds`,
    async () => {
      const page = await client(t.url).get<RoundPage>(
        `/v2/rounds?league_id=${tl.league.id}&limit=100`,
      );
      expect(page.status).toBe(200);
      const done = page.body.entries.filter(
        (r) => r.status === "completed" || r.status === "failed",
      );
      return done.length >= count ? done : null;
    },
    timeoutMs,
  ).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}\n${context()}`);
  });
  const owner = client(t.url, tl.commissioner.token);
  const details = await Promise.all(
    settled.map(async (r) => {
      const detail = await owner.get<RoundDetail>(`/v2/rounds/${r.id}`);
      expect(detail.status, detail.text).toBe(200);
      return detail.body;
    }),
  );
  return new Map(details.map((r) => [r.round_number, r]));
}

/**
 * What the fixture's run shows on any runtime: round 1 ranked the commissioner's way (Z to A,
 * whatever the scores) with its tags on its episode; each round `misbehave` spoiled failed for
 * its own reason, unscored (a crash's log kept for the owner); and round `again`, after them,
 * completed.
 */
export async function expectCommissionerRounds(
  t: TestServer,
  tl: TestLeague,
  rounds: Map<number, RoundDetail>,
  misbehave: Record<number, Misbehaviour>,
  again: number,
): Promise<void> {
  const first = rounds.get(1);
  expect(first?.status).toBe("completed");
  expect(
    [...(first?.results ?? [])]
      .sort((a, b) => a.rank - b.rank)
      .map((r) => [r.player?.name, r.score]),
  ).toEqual([
    ["Zed", 100],
    ["Ada", 90],
  ]);
  expect(first?.commissioner).toMatchObject({ kind: "coworld", runnable_id: FIXTURE_RUNNABLE_ID });
  const episodes = (
    await client(t.url, tl.commissioner.token).get<{ entries: EpisodeRequest[] }>(
      `/v2/episode-requests?round_id=${first?.id ?? ""}`,
    )
  ).body.entries;
  expect(episodes).toHaveLength(1);
  expect(episodes[0]?.tags).toEqual({ stage: "fixture", round: "1" });
  expect(episodes[0]?.status).toBe("completed");

  for (const [number, how] of Object.entries(misbehave)) {
    const round = rounds.get(Number(number));
    expect(round?.status, `round ${number}`).toBe("failed");
    expect(round?.error, `round ${number}`).toMatch(MISBEHAVIOURS[how]);
    expect(round?.results, `round ${number}`).toEqual([]);
    // The league's owner reads what the crashed commissioner printed.
    if (how === "crash")
      expect(round?.commissioner_log, `round ${number}`).toMatch(/falling over on purpose/);
  }

  expect(rounds.get(again)?.status).toBe("completed");
  expect(rounds.get(again)?.results.map((r) => r.player?.name)).toContain("Zed");
}
