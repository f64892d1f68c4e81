// Rounds over real HTTP with a scripted runner: the scheduler seats champions, results settle
// into ratings and standings once, promotion moves players, and a restarted server resumes.
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type {
  CompetitionEvent,
  LeaderboardRow,
  LeaguePolicyMembership,
  LeagueSubmission,
  Pool,
  RoundDetail,
  RoundPage,
  TriggerRoundResponse,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
} from "../../testing/test-league.ts";
import { createTestStore } from "../../testing/test-store.ts";
import { loadSecretBox } from "../auth/secret-box.ts";
import { DirectoryBlobStore } from "../blobs/blob-store.ts";
import { complete } from "../episodes/job-completion.ts";
import { openStore } from "../store/database.ts";
import { startRound } from "./round-start.ts";

let auto: TestServer;
let manual: TestServer;

beforeAll(async () => {
  auto = await startTestServer({ env: { GAUNTLET_SCHEDULER_TICK_MS: "30" } });
  manual = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await auto?.close();
  await manual?.close();
});
// Each test drains the queue it leaves, so the next one's scripted runner leases only its own jobs.
afterEach(async () => {
  for (const t of [auto, manual]) {
    const runner = await scriptedRunner(t, "drain");
    while ((await runner.runQueued((names) => names.map(() => 0))).length > 0);
  }
});

async function rounds(t: TestServer, query: string): Promise<RoundPage> {
  const res = await client(t.url).get<RoundPage>(`/v2/rounds?${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function round(t: TestServer, id: string, token?: string): Promise<RoundDetail> {
  return (await client(t.url, token).get<RoundDetail>(`/v2/rounds/${id}`)).body;
}

async function trigger(
  t: TestServer,
  tl: TestLeague,
  body: Record<string, unknown> = {},
): Promise<TriggerRoundResponse> {
  const res = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    body,
  );
  expect(res.status).toBe(200);
  return res.body;
}

async function pause(t: TestServer, tl: TestLeague, paused: boolean): Promise<void> {
  expect(
    (
      await client(t.url, tl.commissioner.token).post(`/v2/leagues/${tl.league.id}/rounds-paused`, {
        paused,
      })
    ).status,
  ).toBe(200);
}

/** Runs every queued job of one round (a scripted runner leases everything queued). */
async function playRound(
  t: TestServer,
  runner: ScriptedRunner,
  roundId: string,
  strength: Record<string, number>,
): Promise<RoundDetail> {
  await runner.runQueued(byStrength(strength));
  return eventually(`round ${roundId} to settle`, async () => {
    const r = await round(t, roundId);
    return r.status === "completed" || r.status === "failed" ? r : null;
  });
}

const STRENGTH = { Ada: 3, Bo: 2, Cy: 1, Dee: 0 };

describe("the scheduler", () => {
  it("starts a round for the champions, round robin, and settles it into results and standings; the next round follows", async () => {
    const tl = await createTestLeague(auto);
    const runner = await scriptedRunner(auto);
    await pause(auto, tl, true);
    for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
    await pause(auto, tl, false);
    const division = tl.divisions[0];
    if (!division) throw new Error("no division");

    const first = await eventually(
      "the first round",
      async () => (await rounds(auto, `league_id=${tl.league.id}`)).entries[0],
    );
    expect(first).toMatchObject({
      round_number: 1,
      status: "running",
      division: { id: division.id },
      league_id: tl.league.id,
      execution_backend: "process",
    });
    expect(first.round_display).toMatchObject({ seating: "round_robin", episodes: 3, players: 3 });
    const pools = await client(auto.url).get<Pool[]>(`/v2/pools?round_id=${first.id}`);
    expect(pools.body).toHaveLength(1);
    expect(pools.body[0]?.members.map((m) => m.player_name).sort()).toEqual(["Ada", "Bo", "Cy"]);
    const pool = await client(auto.url).get<Pool>(`/v2/pools/${pools.body[0]?.id ?? ""}`);
    expect(pool.body.episode_count).toBe(3);

    const settled = await playRound(auto, runner, first.id, STRENGTH);
    expect(settled.status).toBe("completed");
    expect(
      settled.results.map((r) => [r.player?.name, r.rank, r.result_metadata.episodes]),
    ).toEqual([
      ["Ada", 1, 2],
      ["Bo", 2, 2],
      ["Cy", 3, 2],
    ]);
    expect(settled.results[0]?.policy_version).not.toBeNull();

    const rows = await tl.leaderboard(division.id);
    expect(rows?.map((r) => r.player_name)).toEqual(["Ada", "Bo", "Cy"]);
    expect(rows?.map((r) => [r.rounds_played, r.episodes_played])).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(rows?.[0]?.score).toBeGreaterThan(1500);
    expect(rows?.every((r) => r.recent_rounds.length === 0)).toBe(true);
    const recent = await client(auto.url).get<LeaderboardRow[]>(
      `/v2/divisions/${division.id}/leaderboard?include_recent_rounds=true`,
    );
    expect(recent.body[0]?.recent_rounds[0]).toMatchObject({
      id: first.id,
      round_number: 1,
      rank: 1,
      status: "completed",
    });

    const second = await eventually(
      "the next round",
      async () => (await rounds(auto, `league_id=${tl.league.id}&status=running`)).entries[0],
    );
    expect(second.round_number).toBe(2);
    const page = await rounds(auto, `division_id=${division.id}&limit=1`);
    expect(page).toMatchObject({ total_count: 2, limit: 1, offset: 0 });
    await pause(auto, tl, true);
  });

  it("counts a result once when its completion is delivered twice", async () => {
    const tl = await createTestLeague(auto);
    const runner = await scriptedRunner(auto);
    await pause(auto, tl, true);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(auto, tl);
    const roundId = started.rounds[0]?.id ?? "";
    const [job] = await runner.lease(1);
    if (!job) throw new Error("no job");
    const scores = byStrength(STRENGTH)(
      job.players.map((p) => p.display_name),
      job,
    );
    expect(await runner.complete(job, scores)).toBe(200);
    expect(await runner.complete(job, scores)).toBe(200);
    const settled = await eventually("the round to settle", async () => {
      const r = await round(auto, roundId);
      return r.status === "completed" ? r : null;
    });
    expect(settled.results.map((r) => r.result_metadata.episodes)).toEqual([1, 1]);
    expect(await runner.complete(job, scores)).toBe(200);
    const rows = await tl.leaderboard(tl.divisions[0]?.id ?? "");
    expect(rows?.map((r) => [r.player_name, r.rounds_played, r.episodes_played])).toEqual([
      ["Ada", 1, 1],
      ["Bo", 1, 1],
    ]);
    // One Elo episode at K 32 between equals: exactly ±16 on the online rating.
    expect(rows?.map((r) => r.form)).toEqual([1516, 1484]);
  });

  it("starts no round in a paused league, and resumes when unpaused", async () => {
    const tl = await createTestLeague(auto);
    await pause(auto, tl, true);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    await auto.server.leaguePlay.scheduler.tick();
    expect((await rounds(auto, `league_id=${tl.league.id}`)).total_count).toBe(0);
    await pause(auto, tl, false);
    await eventually(
      "a round after unpausing",
      async () => (await rounds(auto, `league_id=${tl.league.id}`)).total_count === 1,
    );
    await pause(auto, tl, true);
  });
});

describe("trigger-round and the database's one round per division", () => {
  it("starts a round now, reports a division that cannot, and never runs two rounds in one division", async () => {
    const tl = await createTestLeague(manual, {
      divisions: [
        { name: "Top", level: 1 },
        { name: "Bottom", level: 2 },
      ],
    });
    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    const [top, bottom] = tl.divisions;
    if (!top || !bottom) throw new Error("divisions");
    const first = await trigger(manual, tl);
    expect(first.rounds.map((r) => r.division.id)).toEqual([bottom.id]);
    expect(first.skipped).toEqual([
      expect.objectContaining({ division_id: top.id, reason: "below_min_players" }),
    ]);

    const again = await trigger(manual, tl, { division_id: bottom.id });
    expect(again.rounds).toEqual([]);
    expect(again.skipped[0]?.reason).toBe("round_running");

    // Racing starts (as replicas would): the running round stays the only one.
    const { db, bus } = manual.server.leaguePlay;
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => startRound(db, bus, bottom.id, { force: true })),
    );
    expect(raced.every((o) => o.kind === "skipped")).toBe(true);
    const active = await db
      .selectFrom("rounds")
      .select("id")
      .where("division_id", "=", bottom.id)
      .where("active", "=", 1)
      .execute();
    expect(active).toHaveLength(1);
    const duplicate = db
      .insertInto("rounds")
      .values({
        ...(await db
          .selectFrom("rounds")
          .selectAll()
          .where("division_id", "=", bottom.id)
          .executeTakeFirstOrThrow()),
        id: "round_dup",
        round_number: 99,
      })
      .execute();
    await expect(duplicate).rejects.toThrow();

    const stranger = await manual.newUser();
    const refused = await client(manual.url, stranger.token).post(
      `/v2/leagues/${tl.league.id}/trigger-round`,
      {},
    );
    expect(refused.status).toBe(403);
  });

  it("races of a fresh division start exactly one round", async () => {
    const tl = await createTestLeague(manual);
    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    const { db, bus } = manual.server.leaguePlay;
    const division = tl.divisions[0]?.id ?? "";
    const raced = await Promise.all(
      Array.from({ length: 4 }, () => startRound(db, bus, division, { force: true })),
    );
    expect(raced.filter((o) => o.kind === "started")).toHaveLength(1);
  });
});

describe("too few players", () => {
  it("multiple_seats seats the lone champion twice; filler_policy fills with seed policies that are never ranked; do_not_run skips", async () => {
    const runner = await scriptedRunner(manual);
    const multiple = await createTestLeague(manual, {
      settings: { too_few_players: "multiple_seats", min_players: 1 },
    });
    await multiple.submit(await multiple.addPlayer("Ada"));
    const m = await trigger(manual, multiple);
    const [job] = await runner.lease(5);
    expect(job?.players.map((p) => p.display_name)).toEqual(["Ada", "Ada"]);
    if (job) await runner.complete(job, [2, 1]);
    const mDone = await eventually("the multiple_seats round", async () =>
      (await round(manual, m.rounds[0]?.id ?? "")).status === "completed" ? true : null,
    );
    expect(mDone).toBe(true);

    const filler = await createTestLeague(manual, {
      settings: { too_few_players: "filler_policy", min_players: 1 },
    });
    const ada = await filler.addPlayer("Ada");
    const seed = await filler.addPlayer("Seed");
    await filler.submit(ada);
    const seeds = await client(manual.url, filler.commissioner.token).post<{
      policy_version_ids: string[];
      policy_versions: { id: string }[];
    }>(`/v2/leagues/${filler.league.id}/seed-policies`, {
      policy_version_ids: [seed.policyVersionId],
    });
    expect(seeds.body.policy_versions.map((v) => v.id)).toEqual([seed.policyVersionId]);
    expect(
      (
        await client(manual.url).get<{ policy_version_ids: string[] }>(
          `/v2/leagues/${filler.league.id}/seed-policies`,
        )
      ).body.policy_version_ids,
    ).toEqual([seed.policyVersionId]);
    const stranger = await manual.newUser();
    const foreign = await filler.addPlayer("Foreign", { owner: stranger });
    const refused = await client(manual.url, filler.commissioner.token).post<{
      detail: { loc: (string | number)[] }[];
    }>(`/v2/leagues/${filler.league.id}/seed-policies`, {
      policy_version_ids: [seed.policyVersionId, foreign.policyVersionId],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]?.loc).toEqual(["body", "policy_version_ids", 1]);
    const f = await trigger(manual, filler);
    const pools = await client(manual.url).get<Pool[]>(
      `/v2/pools?round_id=${f.rounds[0]?.id ?? ""}`,
    );
    expect(pools.body[0]?.members.map((x) => x.role).sort()).toEqual(["champion", "filler"]);
    const settled = await playRound(manual, runner, f.rounds[0]?.id ?? "", { Ada: 1 });
    expect(settled.results.map((r) => r.player?.name)).toEqual(["Ada"]);
    expect(
      (await filler.leaderboard(filler.divisions[0]?.id ?? ""))?.map((r) => r.player_name),
    ).toEqual(["Ada"]);

    const none = await createTestLeague(manual, {
      settings: { too_few_players: "do_not_run", min_players: 1 },
    });
    await none.submit(await none.addPlayer("Ada"));
    const skipped = await trigger(manual, none);
    expect(skipped.skipped[0]?.reason).toBe("too_few_players");
  });
});

describe("seating and rankings", () => {
  it("swiss_neighbor seats neighbours in the standings after the first round", async () => {
    const runner = await scriptedRunner(manual);
    const tl = await createTestLeague(manual, { settings: { seating: "swiss_neighbor" } });
    for (const name of ["Ada", "Bo", "Cy", "Dee"]) await tl.submit(await tl.addPlayer(name));
    const first = await trigger(manual, tl);
    await playRound(manual, runner, first.rounds[0]?.id ?? "", STRENGTH);
    const second = await trigger(manual, tl);
    const pools = await client(manual.url).get<Pool[]>(
      `/v2/pools?round_id=${second.rounds[0]?.id ?? ""}`,
    );
    // Round 2's windows start at 0: two tables of neighbours, everyone at one of them.
    expect(pools.body).toHaveLength(2);
    // Seated by form (the online rating), which the published fit need not order alike.
    const rating = new Map(
      (await tl.leaderboard(tl.divisions[0]?.id ?? ""))?.map((r) => [
        r.player_id,
        r.form ?? r.score,
      ]),
    );
    const ratings = pools.body.map((p) =>
      p.members.map((m) => rating.get(m.player_id ?? "") ?? Number.NaN),
    );
    expect(ratings.flat()).toHaveLength(4);
    const [a = [], b = []] = ratings;
    const [high, low] = Math.max(...a) >= Math.max(...b) ? [a, b] : [b, a];
    expect(Math.min(...high)).toBeGreaterThanOrEqual(Math.max(...low));
  });

  it("ranks by score (mean) and by OpenSkill (mu − 3·sigma)", async () => {
    const runner = await scriptedRunner(manual);
    const scored = await createTestLeague(manual, {
      settings: { ranking: "score", score: { aggregation: "mean" } },
    });
    for (const name of ["Ada", "Bo"]) await scored.submit(await scored.addPlayer(name));
    const r1 = await trigger(manual, scored);
    await playRound(manual, runner, r1.rounds[0]?.id ?? "", { Ada: 7, Bo: 4 });
    expect(
      (await scored.leaderboard(scored.divisions[0]?.id ?? ""))?.map((r) => [
        r.player_name,
        r.score,
      ]),
    ).toEqual([
      ["Ada", 7],
      ["Bo", 4],
    ]);

    const skill = await createTestLeague(manual, { settings: { ranking: "openskill" } });
    for (const name of ["Ada", "Bo"]) await skill.submit(await skill.addPlayer(name));
    const r2 = await trigger(manual, skill);
    await playRound(manual, runner, r2.rounds[0]?.id ?? "", STRENGTH);
    const views = await client(manual.url).get<{
      views: {
        columns: { key: string }[];
        rows: { subject_name: string; values: Record<string, number> }[];
      }[];
    }>(`/v2/divisions/${skill.divisions[0]?.id ?? ""}/leaderboards`);
    const view = views.body.views[0];
    expect(view?.columns.map((c) => c.key)).toContain("sigma");
    expect(view?.rows.map((r) => r.subject_name)).toEqual(["Ada", "Bo"]);
    const top = view?.rows[0]?.values;
    expect(top?.score).toBeCloseTo((top?.mu ?? 0) - 3 * (top?.sigma ?? 0), 9);
  });
});

describe("promotion and relegation", () => {
  it("moves the weakest of the upper division down and the best of the lower one up", async () => {
    const runner = await scriptedRunner(manual);
    const tl = await createTestLeague(manual, {
      divisions: [
        { name: "Premier", level: 1 },
        { name: "Challenger", level: 2 },
      ],
      settings: { promotion: { promote: 1, relegate: 1, every_rounds: 1 } },
    });
    const [premier, challenger] = tl.divisions;
    if (!premier || !challenger) throw new Error("divisions");
    const players = Object.fromEntries(
      await Promise.all(
        ["Ada", "Bo", "Cy", "Dee"].map(async (n) => [n, await tl.addPlayer(n)] as const),
      ),
    );
    const seed = async (name: string, division: string) => {
      const p = players[name];
      if (!p) throw new Error(name);
      await tl.submit(p, { preferences: { division_id: division } });
    };
    await seed("Ada", premier.id);
    await seed("Cy", premier.id);
    await seed("Bo", challenger.id);
    await seed("Dee", challenger.id);
    const lower = await trigger(manual, tl, { division_id: challenger.id });
    await playRound(manual, runner, lower.rounds[0]?.id ?? "", STRENGTH);
    const upper = await trigger(manual, tl, { division_id: premier.id });
    await playRound(manual, runner, upper.rounds[0]?.id ?? "", STRENGTH);

    // Winners and losers tie on Elo across the two divisions, so compare as sets.
    expect((await tl.leaderboard(premier.id))?.map((r) => r.player_name).sort()).toEqual([
      "Ada",
      "Bo",
    ]);
    expect((await tl.leaderboard(challenger.id))?.map((r) => r.player_name).sort()).toEqual([
      "Cy",
      "Dee",
    ]);
    const cy = await client(manual.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?player_id=${players.Cy?.id ?? ""}`,
    );
    expect(cy.body.map((m) => m.division.id)).toEqual([challenger.id]);
    const moves = await client(manual.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}`,
    );
    const kinds = moves.body
      .filter((e) => e.event_type === "player_promoted" || e.event_type === "player_relegated")
      .map((e) => [e.event_type, e.player?.name]);
    expect(kinds.sort()).toEqual([
      ["player_promoted", "Bo"],
      ["player_relegated", "Cy"],
    ]);
  });
});

describe("a restarted server", () => {
  it("settles, from the database alone, the round whose episodes finished while it was down", async () => {
    const storeA = await createTestStore();
    const first = await startTestServer({ testStore: storeA, env: { GAUNTLET_SCHEDULER: "off" } });
    const tl = await createTestLeague(first);
    for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(first, tl);
    const roundId = started.rounds[0]?.id ?? "";
    const runner = await scriptedRunner(first);
    const jobs = await runner.lease();
    expect(jobs).toHaveLength(3);
    const machineId = (await client(first.url, runner.token).get<{ subject_id: string }>("/whoami"))
      .body.subject_id;
    await first.server.close();

    // The runner finishes while no server runs (as if the last one crashed after recording them).
    const store = openStore({
      dataDir: storeA.dataDir,
      databaseUrl: storeA.databaseUrl,
      pgSchema: storeA.pgSchema,
    });
    const queue = {
      db: store.db,
      blobs: new DirectoryBlobStore(join(storeA.dataDir, "blobs")),
      box: loadSecretBox(storeA.dataDir, undefined),
    };
    for (const job of jobs)
      await complete(
        queue,
        job.job_id,
        { machineId, token: job.lease_token },
        {
          scores: byStrength(STRENGTH)(
            job.players.map((p) => p.display_name),
            job,
          ),
          winner_slot: 0,
          turns: 5,
          seed: 1,
        },
      );

    const second = await startTestServer({
      testStore: { ...storeA, store },
      env: { GAUNTLET_SCHEDULER_TICK_MS: "30" },
    });
    try {
      const settled = await eventually("the round after the restart", async () => {
        const r = await round(second, roundId);
        return r.status === "completed" ? r : null;
      });
      expect(settled.results.map((r) => r.player?.name)).toEqual(["Ada", "Bo", "Cy"]);
      await pause(second, tl, true);
    } finally {
      await second.server.close();
      await storeA.cleanup();
    }
  });
});

describe("embedded resources", () => {
  it("are whole in rounds, round results, memberships, submissions and the feed, as the hosted service's clients read them", async () => {
    const tl = await createTestLeague(manual);
    const runner = await scriptedRunner(manual);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(manual, tl);
    const detail = await playRound(manual, runner, started.rounds[0]?.id ?? "", STRENGTH);

    // A Division carries its whole League, which carries its whole Game.
    const wholeDivision = {
      id: expect.any(String),
      created_at: expect.any(String),
      league: {
        id: tl.league.id,
        created_at: expect.any(String),
        commissioner_key: expect.any(String),
        game: { id: expect.any(String), name: expect.any(String), created_at: expect.any(String) },
      },
    };
    const wholeVersion = {
      id: expect.any(String),
      version: expect.any(Number),
      policy: { id: expect.any(String), name: expect.any(String) },
    };
    expect(detail.division).toMatchObject(wholeDivision);
    expect(detail.results.length).toBeGreaterThan(0);
    for (const result of detail.results) expect(result.policy_version).toMatchObject(wholeVersion);
    expect((await rounds(manual, `league_id=${tl.league.id}`)).entries[0]?.division).toMatchObject(
      wholeDivision,
    );

    const memberships = await client(manual.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?league_id=${tl.league.id}`,
    );
    expect(memberships.body.length).toBe(2);
    for (const m of memberships.body)
      expect(m).toMatchObject({
        league: wholeDivision.league,
        division: wholeDivision,
        policy_version: wholeVersion,
      });

    const submissions = await client(manual.url).get<LeagueSubmission[]>(
      `/v2/league-submissions?league_id=${tl.league.id}`,
    );
    expect(submissions.body.length).toBe(2);
    for (const s of submissions.body)
      expect(s).toMatchObject({ league: wholeDivision.league, policy_version: wholeVersion });

    const feed = await client(manual.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}`,
    );
    const settled = feed.body.find((e) => e.event_type === "round_completed");
    expect(settled).toMatchObject({ league: wholeDivision.league, division: wholeDivision });
    const placed = feed.body.find((e) => e.policy_version !== null);
    expect(placed?.policy_version).toMatchObject(wholeVersion);
  });
});

describe("round reads", () => {
  it("hide a private league's rounds and pools from those who cannot see it", async () => {
    const tl = await createTestLeague(manual, { public: false });
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(manual, tl);
    const id = started.rounds[0]?.id ?? "";
    expect((await client(manual.url).get(`/v2/rounds/${id}`)).status).toBe(404);
    expect((await client(manual.url).get(`/v2/pools?round_id=${id}`)).status).toBe(404);
    expect((await rounds(manual, `league_id=${tl.league.id}`)).total_count).toBe(0);
    expect((await round(manual, id, tl.commissioner.token)).id).toBe(id);
    const unknown = await client(manual.url).get<{ detail: { loc: string[] }[] }>(
      "/v2/rounds/round_x",
    );
    expect(unknown.status).toBe(422);
  });
});
