// The rating ledger over real HTTP on the test store (SQLite, or PostgreSQL with
// GAUNTLET_TEST_SUITE=postgres): recomputing from the record gives the stored ratings; failures
// no seat caused change no rating; a seat's own failure is a loss for that seat only; a void
// changes exactly the ratings of those who played the voided episode (when it is the last one)
// and says so in the feed; and what beats what counts the scored episodes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  CompetitionEvent,
  DivisionPairwise,
  EpisodeVoid,
  LeaderboardRow,
  RatingsRecompute,
  RoundPage,
} from "@gauntlet/core";

import { client } from "../../../testing/http.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
} from "../../../testing/test-league.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
});

const STRENGTH = byStrength({ Ada: 3, Bo: 2, Cy: 1 });
type Job = Awaited<ReturnType<ScriptedRunner["lease"]>>[number];
const names = (job: Job) => job.players.map((p) => p.display_name);

async function roundsCompleted(tl: TestLeague, n: number) {
  await eventually(`${n} round(s) settled`, async () => {
    const rounds = await client(t.url, tl.commissioner.token).get<RoundPage>(
      `/v2/rounds?league_id=${tl.league.id}`,
    );
    const all = rounds.body.entries;
    const done = all.filter((r) => r.status === "completed" || r.status === "failed");
    return done.length >= n && done.length === all.length ? true : null;
  });
}

async function trigger(tl: TestLeague) {
  const res = await client(t.url, tl.commissioner.token).post(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  expect(res.status, res.text).toBe(200);
}

async function ratings(tl: TestLeague, division: string): Promise<Map<string, number>> {
  const rows = await client(t.url).get<LeaderboardRow[] | null>(
    `/v2/divisions/${division}/leaderboard`,
  );
  // The online ratings (`form`): a void changes exactly its players' (the fit moves every row).
  return new Map((rows.body ?? []).map((r) => [r.player_name, r.form ?? r.score]));
}

async function recompute(tl: TestLeague, division: string, dryRun: boolean) {
  const res = await client(t.url, tl.commissioner.token).post<RatingsRecompute>(
    `/v2/divisions/${division}/ratings/recompute`,
    { dry_run: dryRun },
  );
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function league() {
  const tl = await createTestLeague(t, { public: true });
  const division = tl.divisions[0]?.id ?? "";
  for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
  return { tl, division, runner: await scriptedRunner(t) };
}

describe("the rating ledger", () => {
  it("recomputes the stored ratings from the record; failures no seat caused change none; a seat's own failure is its loss only", async () => {
    const { tl, division, runner } = await league();
    for (let round = 1; round <= 2; round += 1) {
      await trigger(tl);
      await runner.runQueued(STRENGTH);
      await roundsCompleted(tl, round);
    }
    const settled = await ratings(tl, division);
    const dry = await recompute(tl, division, true);
    expect(dry).toMatchObject({ dry_run: true, applied: false, rounds: 2, episodes_scored: 6 });
    expect(dry.rows.map((r) => r.difference)).toEqual([0, 0, 0]);
    expect(dry.rows.every((r) => r.stored !== null && r.stored === r.recomputed)).toBe(true);

    // Round 3: every episode fails for a reason no seat caused.
    await trigger(tl);
    const infra = ["game_crashed", "timeout", "game_unhealthy"];
    const jobs = await runner.lease();
    expect(jobs).toHaveLength(3);
    for (const [i, job] of jobs.entries()) {
      const res = await runner.fail(job, { error_type: infra[i], error: "not the seats' doing" });
      expect(res.status, res.text).toBe(200);
    }
    await roundsCompleted(tl, 3);
    expect(await ratings(tl, division)).toEqual(settled);
    expect((await recompute(tl, division, true)).rows.map((r) => r.difference)).toEqual([0, 0, 0]);

    // Round 4: Ada's seat runs out of memory against Cy; the rest play as usual.
    await trigger(tl);
    for (const job of await runner.lease()) {
      const seated = names(job);
      if (seated.includes("Ada") && seated.includes("Cy")) {
        const res = await runner.fail(job, {
          error_type: "out_of_memory",
          error: "seat over its memory limit",
          failed_policy_index: seated.indexOf("Ada"),
        });
        expect(res.status, res.text).toBe(200);
      } else await runner.complete(job, STRENGTH(seated, job));
    }
    await roundsCompleted(tl, 4);
    const pairs = await client(t.url).get<DivisionPairwise>(`/v2/divisions/${division}/pairwise`);
    expect(pairs.status, pairs.text).toBe(200);
    const id = new Map(pairs.body.players.map((p) => [p.player_name, p.player_id]));
    const cell = (a: string, b: string) =>
      pairs.body.cells.find((c) => c.player_id === id.get(a) && c.opponent_id === id.get(b));
    // Three scored rounds of Ada vs Cy: two won by Ada, one lost by her failure; none from round 3.
    expect(cell("Ada", "Cy")).toMatchObject({ wins: 2, losses: 1, draws: 0, episodes: 3 });
    expect(cell("Cy", "Ada")).toMatchObject({ wins: 1, losses: 2, win_rate: 1 / 3 });
    expect(cell("Ada", "Bo")).toMatchObject({ wins: 3, losses: 0, win_rate: 1 });
    expect(pairs.body.episodes).toBe(9);
    // Settling and replaying agree on the seat's failure too.
    const after = await recompute(tl, division, true);
    expect(after.rows.map((r) => r.difference)).toEqual([0, 0, 0]);
    expect(after).toMatchObject({ rounds: 3, episodes_scored: 9, episodes_unscored: 3 });
  });

  it("voids an episode with a reason: exactly its players' ratings change, the feed says so, and a second void is refused", async () => {
    const { tl, division, runner } = await league();
    for (let round = 1; round <= 3; round += 1) {
      await trigger(tl);
      const jobs = await runner.runQueued(STRENGTH);
      await roundsCompleted(tl, round);
      if (round === 3) {
        const adaBo = jobs.find((j) => names(j).includes("Ada") && names(j).includes("Bo"));
        const episode = adaBo?.episode_request_id ?? "";
        const before = await ratings(tl, division);

        const anonymous = await client(t.url).post(`/v2/episode-requests/${episode}/void`, {
          reason: "x",
        });
        expect(anonymous.status).toBe(401);
        const stranger = await t.newUser();
        const refused = await client(t.url, stranger.token).post(
          `/v2/episode-requests/${episode}/void`,
          { reason: "I lost" },
        );
        expect(refused.status).toBe(403);
        const empty = await client(t.url, tl.commissioner.token).post<{
          detail: { loc: unknown[] }[];
        }>(`/v2/episode-requests/${episode}/void`, { reason: "  " });
        expect(empty.status).toBe(422);
        expect(empty.body.detail[0]?.loc).toContain("reason");

        const voided = await client(t.url, tl.commissioner.token).post<EpisodeVoid>(
          `/v2/episode-requests/${episode}/void`,
          { reason: "the game's map generator was broken in this seed" },
        );
        expect(voided.status, voided.text).toBe(200);
        expect(voided.body.recompute).toMatchObject({ applied: true, dry_run: false });
        const changed = voided.body.recompute?.rows.filter((r) => r.difference !== 0) ?? [];
        expect(changed.map((r) => r.player_name).sort()).toEqual(["Ada", "Bo"]);
        // Ada's win over Bo no longer counts: she falls, he rises.
        expect(changed.find((r) => r.player_name === "Ada")?.difference).toBeLessThan(0);
        expect(changed.find((r) => r.player_name === "Bo")?.difference).toBeGreaterThan(0);

        const now = await eventually("the standings to follow the void", async () => {
          const next = await ratings(tl, division);
          return next.get("Ada") !== before.get("Ada") ? next : null;
        });
        expect(now.get("Cy")).toBe(before.get("Cy"));
        for (const row of voided.body.recompute?.rows ?? [])
          expect(now.get(row.player_name)).toBeCloseTo(row.recomputed ?? NaN, 1);
        expect((await recompute(tl, division, true)).rows.map((r) => r.difference)).toEqual([
          0, 0, 0,
        ]);

        const again = await client(t.url, tl.commissioner.token).post(
          `/v2/episode-requests/${episode}/void`,
          { reason: "twice" },
        );
        expect(again.status).toBe(409);

        const feed = await client(t.url).get<CompetitionEvent[]>(
          `/v2/competition-events?division_id=${division}`,
        );
        const types = feed.body.map((e) => e.event_type);
        expect(types).toContain("episode_voided");
        expect(types).toContain("ratings_recomputed");
        expect(feed.body.find((e) => e.event_type === "episode_voided")?.summary).toBe(
          "the game's map generator was broken in this seed",
        );

        const pairs = await client(t.url).get<DivisionPairwise>(
          `/v2/divisions/${division}/pairwise`,
        );
        const id = new Map(pairs.body.players.map((p) => [p.player_name, p.player_id]));
        expect(
          pairs.body.cells.find(
            (c) => c.player_id === id.get("Ada") && c.opponent_id === id.get("Bo"),
          ),
        ).toMatchObject({ wins: 2, episodes: 2 });
      }
    }
  });

  it("keeps recompute to the commissioner and admins", async () => {
    const { tl, division } = await league();
    const stranger = await t.newUser();
    const res = await client(t.url, stranger.token).post(
      `/v2/divisions/${division}/ratings/recompute`,
      {},
    );
    expect(res.status).toBe(403);
    expect((await recompute(tl, division, false)).applied).toBe(false);
  });
});
