// Policy memberships over real HTTP: the filters of the list, champion and retire.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { LeaderboardRow, LeaguePolicyMembership, ResponseOf } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague, type TestPlayer } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let ada: TestPlayer;
let bo: TestPlayer;
let adaSecond: string;
let owner: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t, {
    divisions: [
      { name: "Premier", level: 1 },
      { name: "Challenger", level: 2 },
    ],
  });
  owner = await t.newUser();
  ada = await tl.addPlayer("Ada", { owner });
  bo = await tl.addPlayer("Bo");
  await tl.submit(ada, {}, owner.token);
  adaSecond = await tl.addVersion(ada, "second-policy", owner);
  await tl.submit({ ...ada, policyVersionId: adaSecond }, { auto_champion: "never" }, owner.token);
  await tl.submit(bo, { preferences: { division_id: tl.divisions[0]?.id } });
});
afterAll(async () => {
  await t?.close();
});

async function list(query: string, token?: string): Promise<LeaguePolicyMembership[]> {
  const res = await client(t.url, token).get<LeaguePolicyMembership[]>(
    `/v2/league-policy-memberships?${query}`,
  );
  expect(res.status).toBe(200);
  return res.body;
}

describe("GET /v2/league-policy-memberships", () => {
  it("filters by league, division, player, policy version, champions, activity and ownership", async () => {
    const [premier, challenger] = tl.divisions;
    expect((await list(`league_id=${tl.league.id}`)).map((m) => m.player?.name).sort()).toEqual([
      "Ada",
      "Ada",
      "Bo",
    ]);
    expect((await list(`division_id=${premier?.id ?? ""}`)).map((m) => m.player?.name)).toEqual([
      "Bo",
    ]);
    expect(
      (await list(`division_id=${challenger?.id ?? ""}`)).map((m) => m.policy_version.id).sort(),
    ).toEqual([ada.policyVersionId, adaSecond].sort());
    expect(
      (await list(`player_id=${ada.id}&champions_only=true`)).map((m) => m.policy_version.id),
    ).toEqual([ada.policyVersionId]);
    expect((await list(`policy_version_id=${adaSecond}`)).map((m) => m.is_champion)).toEqual([
      false,
    ]);
    expect(
      (await list(`league_id=${tl.league.id}&mine=true`, owner.token)).map((m) => m.player?.name),
    ).toEqual(["Ada", "Ada"]);
    expect(await list(`league_id=${tl.league.id}&mine=true`)).toEqual([]);
    expect(await list(`league_id=${tl.league.id}&limit=1`)).toHaveLength(1);
    const bad = await client(t.url).get<{ detail: { loc: string[] }[] }>(
      "/v2/league-policy-memberships?limit=0&active_only=maybe",
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d) => d.loc.join(".")).sort()).toEqual([
      "query.active_only",
      "query.limit",
    ]);
  });
});

describe("GET /v2/league-policy-memberships/portfolio", () => {
  it("lists the live seats of the caller's players with the names a player card prints", async () => {
    const res = await client(t.url, owner.token).get<ResponseOf<"getMembershipPortfolio">>(
      "/v2/league-policy-memberships/portfolio?limit=1000",
    );
    expect(res.status, res.text).toBe(200);
    const challenger = tl.divisions[1];
    expect(res.body.map((s) => s.policy_version_id).sort()).toEqual(
      [ada.policyVersionId, adaSecond].sort(),
    );
    for (const seat of res.body)
      expect(seat).toMatchObject({
        player_id: ada.id,
        league_id: tl.league.id,
        league_name: tl.league.name,
        division_id: challenger?.id,
        division_name: "Challenger",
        status: expect.stringMatching(/^(qualifying|competing)$/),
      });
    expect(res.body.map((s) => s.policy_label)).toContain("second-policy:v1");
    // Someone else's seats are not in a portfolio; without a token it is 401.
    const other = await t.newUser();
    expect(
      (await client(t.url, other.token).get("/v2/league-policy-memberships/portfolio")).body,
    ).toEqual([]);
    expect((await client(t.url).get("/v2/league-policy-memberships/portfolio")).status).toBe(401);
    expect(
      (await client(t.url, owner.token).get("/v2/league-policy-memberships/portfolio?limit=1001"))
        .status,
    ).toBe(422);
  });

  it("labels what a leaderboard's score is", async () => {
    const rows = await client(t.url).get<LeaderboardRow[] | null>(
      `/v2/divisions/${tl.divisions[0]?.id ?? ""}/leaderboard`,
    );
    expect(rows.status).toBe(200);
    expect(rows.body?.length).toBeGreaterThan(0);
    for (const row of rows.body ?? []) expect(row.score_label).toBe("Elo");
  });
});

describe("champion and retire", () => {
  it("switches the champion for the player's owner; strangers get 403, unknown memberships 404", async () => {
    const [second] = await list(`policy_version_id=${adaSecond}`);
    if (!second) throw new Error("no membership");
    const stranger = await t.newUser();
    expect(
      (
        await client(t.url, stranger.token).post(
          `/v2/league-policy-memberships/${second.id}/champion`,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await client(t.url, owner.token).post(
          "/v2/league-policy-memberships/lpm_00000000-0000-4000-8000-000000000000/champion",
        )
      ).status,
    ).toBe(404);
    const res = await client(t.url, owner.token).post<LeaguePolicyMembership>(
      `/v2/league-policy-memberships/${second.id}/champion`,
    );
    expect(res.status).toBe(200);
    expect(res.body.is_champion).toBe(true);
    expect((await list(`player_id=${ada.id}&champions_only=true`)).map((m) => m.id)).toEqual([
      second.id,
    ]);
    const views = await client(t.url).get<{
      views: { rows: { subject_name: string; policy_version_ids: string[] }[] }[];
    }>(`/v2/divisions/${tl.divisions[1]?.id ?? ""}/leaderboards`);
    expect(
      views.body.views[0]?.rows.find((r) => r.subject_name === "Ada")?.policy_version_ids,
    ).toEqual([adaSecond]);
  });

  it("retires: the champion hands over to the player's other membership; the last one takes the player out of the standings", async () => {
    const [champion] = await list(`player_id=${ada.id}&champions_only=true`);
    if (!champion) throw new Error("no champion");
    const retired = await client(t.url, owner.token).post<LeaguePolicyMembership>(
      `/v2/league-policy-memberships/${champion.id}/retire`,
      { reason: "outclassed" },
    );
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({
      status: "retired",
      is_champion: false,
      retired_reason: "outclassed",
    });
    expect(retired.body.end_time).not.toBeNull();
    const [next] = await list(`player_id=${ada.id}&champions_only=true`);
    expect(next?.policy_version.id).toBe(ada.policyVersionId);
    expect((await list(`player_id=${ada.id}&active_only=true`)).map((m) => m.id)).toEqual([
      next?.id,
    ]);

    const again = await client(t.url, owner.token).post<LeaguePolicyMembership>(
      `/v2/league-policy-memberships/${champion.id}/retire`,
    );
    expect(again.status).toBe(200);
    expect(again.body.retired_reason).toBe("outclassed");
    const toChampion = await client(t.url, owner.token).post<{ detail: { type: string } }>(
      `/v2/league-policy-memberships/${champion.id}/champion`,
    );
    expect(toChampion.status).toBe(409);

    // The commissioner may retire any member's membership.
    const last = await client(t.url, tl.commissioner.token).post(
      `/v2/league-policy-memberships/${next?.id ?? ""}/retire`,
    );
    expect(last.status).toBe(200);
    expect(await tl.leaderboard(tl.divisions[1]?.id ?? "")).toBeNull();
    const ladder = await client(t.url).get<{ level: number; member_count: number }[]>(
      `/v2/leagues/${tl.league.id}/division-ladder`,
    );
    expect(ladder.body.map((d) => d.member_count)).toEqual([1, 0]);
  });
});
