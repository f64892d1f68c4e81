// cogames' /tournament/* paths over real HTTP: a league read as a season, its division as a pool,
// its round's episodes as matches, with the same visibility, seat and submission rules as our own
// routes, and the token taken from X-Auth-Token as cogames sends it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  Season,
  SeasonDetail,
  SeasonLeaderboardEntry,
  SeasonMatch,
  SeasonPolicySummary,
  SeasonTeam,
} from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  scriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let owner: { id: string; token: string };
let other: { id: string; token: string };
let ada: TestPlayer;
let bo: TestPlayer;
let season: string;
let matchId: string;
/** Ada's seat in the played match. */
let adaSeat: number;

const bare = (id: string) => id.slice(id.indexOf("_") + 1);
const get = <T>(path: string, token?: string) => client(t.url, token).get<T>(path);

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  season = tl.league.id;
  owner = await t.newUser();
  other = await t.newUser();
  ada = await tl.addPlayer("Ada", { owner });
  bo = await tl.addPlayer("Bo", { owner: other, baseline: "random" });
  await tl.submit(ada, {}, owner.token);
  await tl.submit(bo, {}, other.token);
  const runner = await scriptedRunner(t);
  const started = await client(t.url, tl.commissioner.token).post<{ rounds: { id: string }[] }>(
    `/v2/leagues/${season}/trigger-round`,
    {},
  );
  expect(started.status, started.text).toBe(200);
  const roundId = started.body.rounds[0]?.id ?? "";
  const jobs = await runner.lease(8);
  expect(jobs.length).toBeGreaterThan(0);
  for (const job of jobs) {
    for (const p of job.players)
      expect(
        await runner.upload(job, `policy-log-${p.position}`, `log of ${p.display_name}\n`),
      ).toBe(200);
    await runner.complete(
      job,
      job.players.map((p) => (p.display_name === "Ada" ? 10 : 0)),
    );
  }
  const first = jobs[0];
  if (!first) throw new Error("no job");
  matchId = bare(first.episode_request_id);
  adaSeat = first.players.find((p) => p.display_name === "Ada")?.position ?? -1;
  await eventually("the round to settle", async () => {
    const r = await get<{ status: string }>(`/v2/rounds/${roundId}`);
    return r.body.status === "completed";
  });
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe("seasons", () => {
  it("lists the leagues one may see as seasons, with their divisions as pools", async () => {
    const hidden = await createTestLeague(t, { public: false });
    const mine = await get<Season[]>("/tournament/seasons", owner.token);
    expect(mine.status).toBe(200);
    const listed = mine.body.find((s) => s.name === season);
    expect(listed).toMatchObject({
      id: bare(season),
      display_name: tl.league.name,
      status: "in_progress",
      entry_pool: "Premier",
      leaderboard_pool: "Premier",
      pools: [
        {
          name: "Premier",
          id: bare(tl.divisions[0]?.id ?? ""),
          config_id: bare(tl.divisions[0]?.id ?? ""),
        },
      ],
    });
    expect(mine.body.map((s) => s.name)).not.toContain(hidden.league.id);
    expect((await get(`/tournament/seasons/${hidden.league.id}`, owner.token)).status).toBe(404);
    expect(
      (await get(`/tournament/seasons/${hidden.league.id}`, hidden.commissioner.token)).status,
    ).toBe(200);
  });

  it("opens a season by league id, bare UUID or name, with its counts", async () => {
    for (const ref of [season, bare(season), encodeURIComponent(tl.league.name)]) {
      const res = await get<SeasonDetail>(`/tournament/seasons/${ref}`);
      expect(res.status, ref).toBe(200);
      expect(res.body).toMatchObject({
        name: season,
        entrant_count: 2,
        active_entrant_count: 2,
        stage_count: 1,
      });
      expect(res.body.match_count).toBeGreaterThan(0);
      expect(res.body.started_at).not.toBeNull();
    }
    expect((await get("/tournament/seasons/no-such-league")).status).toBe(404);
    const versions = await get<unknown[]>(`/tournament/seasons/${season}/versions`);
    expect(versions.body).toEqual([
      expect.objectContaining({ version: 1, canonical: true, disabled_at: null }),
    ]);
  });

  it("describes stages, progress and a pool's rules", async () => {
    const stages = await get<{ name: string; policy_count: number; completion_pct: number }[]>(
      `/tournament/seasons/${season}/stages`,
    );
    expect(stages.body).toEqual([
      expect.objectContaining({ name: "Premier", policy_count: 2, completion_pct: 100 }),
    ]);
    const progress = await get<{ phase: string; started: boolean }>(
      `/tournament/seasons/${season}/progress`,
    );
    expect(progress.body).toMatchObject({ phase: "policy_eval", started: true });
    const config = await get<{ pool_name: string; config: { settings: { ladder: unknown } } }>(
      `/tournament/seasons/${season}/pools/Premier/config`,
    );
    expect(config.body.pool_name).toBe("Premier");
    expect(config.body.config.settings.ladder).toMatchObject({ ranking: "elo" });
    const byId = await get<{ division_id: string }>(
      `/tournament/configs/${bare(tl.divisions[0]?.id ?? "")}`,
    );
    expect(byId.body.division_id).toBe(tl.divisions[0]?.id);
    expect((await get(`/tournament/seasons/${season}/pools/Nowhere/config`)).status).toBe(404);
  });
});

describe("leaderboards and teams", () => {
  it("ranks each player's champion from the division's standings", async () => {
    const board = await get<SeasonLeaderboardEntry[]>(`/tournament/seasons/${season}/leaderboard`);
    expect(board.status).toBe(200);
    expect(board.body.map((e) => [e.rank, e.policy.id])).toEqual([
      [1, ada.policyVersionId],
      [2, bo.policyVersionId],
    ]);
    expect(board.body[0]?.score).toBeGreaterThan(board.body[1]?.score ?? Infinity);
    const pool = await get<SeasonLeaderboardEntry[]>(
      `/tournament/seasons/${season}/leaderboard/policy/Premier`,
    );
    expect(pool.body).toEqual(board.body);
    const placements = await get<{ placement_score: number; policy: { id: string } }[]>(
      `/tournament/seasons/${season}/score-policies-leaderboard`,
    );
    expect(placements.body.map((p) => [p.policy.id, p.placement_score])).toEqual([
      [ada.policyVersionId, 1],
      [bo.policyVersionId, 2],
    ]);
    const teams = await get<SeasonTeam[]>(`/tournament/seasons/${season}/leaderboard/team/Premier`);
    expect(teams.body.map((x) => [x.id, x.cogs[0]?.policy.id])).toEqual([
      [bare(ada.id), ada.policyVersionId],
      [bare(bo.id), bo.policyVersionId],
    ]);
  });

  it("filters teams and answers a wrong leaderboard type with the 422 shape", async () => {
    const byVersion = await get<SeasonTeam[]>(
      `/tournament/seasons/${season}/teams?policy_version_id=${bo.policyVersionId}`,
    );
    expect(byVersion.body.map((x) => x.id)).toEqual([bare(bo.id)]);
    const paged = await get<SeasonTeam[]>(`/tournament/seasons/${season}/teams?limit=1&offset=1`);
    expect(paged.body.map((x) => x.id)).toEqual([bare(bo.id)]);
    const wrong = await get<{ detail: { loc: unknown[] }[] }>(
      `/tournament/seasons/${season}/leaderboard/elo/Premier`,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]?.loc).toEqual(["path", "leaderboard_type"]);
  });
});

describe("matches", () => {
  it("lists the league's episodes as matches, by policy version too", async () => {
    const all = await get<SeasonMatch[]>(`/tournament/seasons/${season}/matches?limit=10`);
    expect(all.body.map((m) => m.id)).toContain(matchId);
    const filtered = await get<SeasonMatch[]>(
      `/tournament/seasons/${season}/matches?policy_version_ids=${ada.policyVersionId}&policy_version_ids=${bo.policyVersionId}`,
    );
    expect(filtered.body.length).toBe(all.body.length);
    const none = await get<SeasonMatch[]>(
      `/tournament/seasons/${season}/matches?policy_version_ids=00000000-0000-4000-8000-000000000000`,
    );
    expect(none.body).toEqual([]);
  });

  it("shows one match with its players, seats and scores", async () => {
    const res = await get<SeasonMatch>(`/tournament/matches/${matchId}`);
    expect(res.status).toBe(200);
    const m = res.body;
    expect(m).toMatchObject({ season_name: season, pool_name: "Premier", status: "completed" });
    const adaIndex = m.players.findIndex((p) => p.policy.id === ada.policyVersionId);
    expect(m.assignments[adaSeat]).toBe(adaIndex);
    expect(m.players[adaIndex]).toMatchObject({ num_agents: 1, score: 10 });
    expect((await get(`/tournament/matches/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
  });

  it("gives a seat's logs to its policy's owner alone", async () => {
    const logs = `/tournament/matches/${matchId}/${ada.policyVersionId}/policy-logs`;
    expect((await get<string[]>(logs, owner.token)).body).toEqual([`policy_agent_${adaSeat}.txt`]);
    const log = await get(`${logs}/${adaSeat}`, owner.token);
    expect(log.text).toBe("log of Ada\n");
    expect((await get(logs, other.token)).status).toBe(403);
    expect((await get(`${logs}/${adaSeat}`, other.token)).status).toBe(403);
    expect((await get(`${logs}/${adaSeat}`)).status).toBe(404);
    const artifact = `/tournament/matches/${matchId}/${ada.policyVersionId}/artifacts`;
    expect((await get(`${artifact}/logs`, owner.token)).text).toBe("log of Ada\n");
    expect((await get(`${artifact}/logs`, other.token)).status).toBe(403);
    const results = await get(`${artifact}/results`);
    expect(results.status).toBe(200);
  });
});

describe("policies, memberships and submissions", () => {
  it("reads the token from X-Auth-Token, as cogames sends it", async () => {
    const res = await http<Record<string, string[]>>("GET", `${t.url}/tournament/my-memberships`, {
      headers: { "x-auth-token": owner.token },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ [ada.policyVersionId]: [season] });
    expect((await get("/tournament/my-memberships")).status).toBe(401);
  });

  it("lists the season's policies with their pools and episode counts", async () => {
    const res = await get<SeasonPolicySummary[]>(
      `/tournament/seasons/${season}/policies?mine=true`,
      other.token,
    );
    expect(res.body.map((p) => p.policy.id)).toEqual([bo.policyVersionId]);
    const pool = res.body[0]?.pools[0];
    expect(pool).toMatchObject({ pool_name: "Premier", active: true, failed: 0 });
    expect(pool?.completed).toBeGreaterThan(0);
    expect((await get<unknown[]>(`/tournament/seasons/${season}/policies`)).body).toHaveLength(2);
  });

  it("submits under the league's rules and tells a version's history", async () => {
    const path = `/tournament/seasons/${season}/submissions`;
    const version = await tl.addVersion(ada, "ada-two", owner);
    const placed = await client(t.url, owner.token).post<{ pools: string[] }>(path, {
      policy_version_id: version,
    });
    expect(placed.status, placed.text).toBe(200);
    expect(placed.body.pools).toEqual(["Premier"]);
    const again = await client(t.url, owner.token).post(path, { policy_version_id: version });
    expect(again.status).toBe(409);
    const foreign = await client(t.url, other.token).post<{ detail: { loc: unknown[] }[] }>(path, {
      policy_version_id: version,
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0]?.loc).toEqual(["body", "policy_version_id"]);
    expect((await client(t.url).post(path, { policy_version_id: version })).status).toBe(401);

    const memberships = await client(t.url, owner.token).get<{ id: string }[]>(
      `/v2/league-policy-memberships?policy_version_id=${version}`,
    );
    const membershipId = memberships.body[0]?.id ?? "";
    await client(t.url, owner.token).post(`/v2/league-policy-memberships/${membershipId}/retire`, {
      reason: "enough",
    });
    const history = await get<{ action: string; notes: string | null; pool_name: string }[]>(
      `/tournament/policies/${version}/memberships`,
    );
    expect(history.body.map((h) => [h.action, h.notes, h.pool_name])).toEqual([
      ["added", null, "Premier"],
      ["retired", "enough", "Premier"],
    ]);
  });
});
