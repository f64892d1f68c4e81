// League submissions over real HTTP: placement, champions, locks, seeding and the 422s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { DivisionLadderEntry, LeaguePolicyMembership, LeagueSubmission } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  gridrushBundle,
  postBytes,
  scriptedRunner,
  type TestLeague,
} from "../../testing/test-league.ts";

type Invalid = { detail: { loc: (string | number)[]; msg: string; type: string }[] };
type Failure = { detail: { type: string; message: string } };

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
});

function locs(body: Invalid): string[] {
  return body.detail.map((d) => d.loc.join("."));
}

describe("POST /v2/league-submissions", () => {
  let tl: TestLeague;
  beforeAll(async () => {
    tl = await createTestLeague(t, {
      divisions: [
        { name: "Premier", level: 1 },
        { name: "Challenger", level: 2 },
      ],
    });
  });

  it("places a policy version as the player's champion in the lowest division, where the standings show it", async () => {
    const ada = await tl.addPlayer("Ada");
    const sub = await tl.submit(ada);
    expect(sub).toMatchObject({
      status: "placed",
      notes: null,
      auto_champion: "always",
      player: { id: ada.id, name: "Ada" },
      league: { id: tl.league.id },
    });
    expect(sub.policy_version.id).toBe(ada.policyVersionId);
    expect(sub.league_policy_membership_id).toMatch(/^lpm_/);

    const challenger = tl.divisions[1];
    if (!challenger) throw new Error("no second division");
    const memberships = await client(t.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?league_id=${tl.league.id}&player_id=${ada.id}`,
    );
    expect(memberships.body).toHaveLength(1);
    expect(memberships.body[0]).toMatchObject({
      id: sub.league_policy_membership_id,
      status: "competing",
      substatus: "active",
      is_champion: true,
      division: { id: challenger.id, level: 2 },
    });

    const ladder = await client(t.url).get<DivisionLadderEntry[]>(
      `/v2/leagues/${tl.league.id}/division-ladder`,
    );
    expect(ladder.body.map((d) => [d.level, d.member_count])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    const rows = await tl.leaderboard(challenger.id);
    expect(rows?.map((r) => [r.player_name, r.score, r.rounds_played])).toEqual([["Ada", 1500, 0]]);

    const listed = await client(t.url, tl.commissioner.token).get<LeagueSubmission[]>(
      `/v2/league-submissions?league_id=${tl.league.id}&mine=true`,
    );
    expect(listed.body.map((s) => s.id)).toContain(sub.id);
  });

  it("rejects a policy version the player already competes with, and says so", async () => {
    const bo = await tl.addPlayer("Bo");
    const first = await tl.submit(bo);
    const again = await tl.submit(bo);
    expect(again.status).toBe("rejected");
    expect(again.league_policy_membership_id).toBe(first.league_policy_membership_id);
    expect(again.notes).toContain(first.league_policy_membership_id ?? "");
  });

  it("follows auto_champion: never keeps the champion, lineage follows the same policy, always takes over", async () => {
    const cy = await tl.addPlayer("Cy");
    const first = await tl.submit(cy);
    const other = await tl.addVersion(cy, "another-policy");
    const never = await tl.submit({ ...cy, policyVersionId: other }, { auto_champion: "never" });
    const lineageOther = await tl.addVersion(cy, "third-policy");
    const lineage = await tl.submit(
      { ...cy, policyVersionId: lineageOther },
      { auto_champion: "lineage" },
    );
    const champions = async () =>
      (
        await client(t.url).get<LeaguePolicyMembership[]>(
          `/v2/league-policy-memberships?player_id=${cy.id}&champions_only=true`,
        )
      ).body.map((m) => m.id);
    expect(await champions()).toEqual([first.league_policy_membership_id]);
    expect([never.status, lineage.status]).toEqual(["placed", "placed"]);
    // The next version of the champion's own policy is its lineage.
    const next = await tl.addVersion(cy, `greedy-cy`);
    const successor = await tl.submit(
      { ...cy, policyVersionId: next },
      { auto_champion: "lineage" },
    );
    expect(await champions()).toEqual([successor.league_policy_membership_id]);
    const always = await tl.submit({ ...cy, policyVersionId: other }, { auto_champion: "always" });
    expect(always.status).toBe("rejected");
  });

  it("lets the commissioner seed a division; anyone else gets 403", async () => {
    const premier = tl.divisions[0];
    if (!premier) throw new Error("no division");
    const dee = await tl.addPlayer("Dee");
    const seeded = await tl.submit(dee, { preferences: { division_id: premier.id } });
    const membership = await client(t.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?division_id=${premier.id}`,
    );
    expect(membership.body.map((m) => m.id)).toContain(seeded.league_policy_membership_id);

    const outsider = await t.newUser();
    const eve = await tl.addPlayer("Eve", { owner: outsider });
    const res = await client(t.url, outsider.token).post<Failure>("/v2/league-submissions", {
      league_id: tl.league.id,
      policy_version_id: eve.policyVersionId,
      player_id: eve.id,
      preferences: { division_id: premier.id },
    });
    expect(res.status).toBe(403);
    const plain = await tl.submit(eve, {}, outsider.token);
    expect(plain.status).toBe("placed");
  });

  it("answers 409 submissions_locked on a locked league and creates nothing", async () => {
    const locked = await createTestLeague(t);
    const fay = await locked.addPlayer("Fay");
    const lock = await client(t.url, locked.commissioner.token).post(
      `/v2/leagues/${locked.league.id}/locks`,
      { submissions_locked: true },
    );
    expect(lock.status).toBe(200);
    const res = await client(t.url, locked.commissioner.token).post<Failure>(
      "/v2/league-submissions",
      { league_id: locked.league.id, policy_version_id: fay.policyVersionId, player_id: fay.id },
    );
    expect(res.status).toBe(409);
    expect(res.body.detail.type).toBe("submissions_locked");
    expect(res.body.detail.message).toContain("locked");
    const listed = await client(t.url).get<LeagueSubmission[]>(
      `/v2/league-submissions?league_id=${locked.league.id}`,
    );
    expect(listed.body).toEqual([]);
  });

  it("names the field of each bad reference in a 422", async () => {
    const stranger = await t.newUser();
    const gus = await tl.addPlayer("Gus");
    const post = (body: Record<string, unknown>, token = tl.commissioner.token) =>
      client(t.url, token).post<Invalid>("/v2/league-submissions", body);
    const base = {
      league_id: tl.league.id,
      policy_version_id: gus.policyVersionId,
      player_id: gus.id,
    };

    const unknownLeague = await post({
      ...base,
      league_id: "league_00000000-0000-4000-8000-000000000000",
    });
    expect(unknownLeague.status).toBe(422);
    expect(locs(unknownLeague.body)).toEqual(["body.league_id"]);

    const foreignVersion = await post(base, stranger.token);
    expect(foreignVersion.status).toBe(422);
    expect(locs(foreignVersion.body)).toEqual(["body.policy_version_id"]);

    const strangersPlayer = await client(t.url, stranger.token).post<{ id: string }>("/players", {
      name: "Hal",
    });
    const foreignPlayer = await post({ ...base, player_id: strangersPlayer.body.id });
    expect(foreignPlayer.status).toBe(422);
    expect(locs(foreignPlayer.body)).toEqual(["body.player_id"]);

    const badSeed = await post({
      ...base,
      preferences: { division_id: "div_00000000-0000-4000-8000-000000000000" },
    });
    expect(badSeed.status).toBe(422);
    expect(locs(badSeed.body)).toEqual(["body.preferences.division_id"]);

    const shapes = await post({
      league_id: "nope",
      policy_version_id: 7,
      auto_champion: "sometimes",
    });
    expect(shapes.status).toBe(422);
    expect(locs(shapes.body).sort()).toEqual([
      "body.auto_champion",
      "body.league_id",
      "body.policy_version_id",
    ]);
  });

  it("names a newcomer's default player after the first policy they submit, not after their account", async () => {
    const newcomer = await t.newUser();
    const api = client(t.url, newcomer.token);
    const bundle = await postBytes<{ id: string }>(
      `${t.url}/v2/policy-bundles/upload`,
      newcomer.token,
      await gridrushBundle(),
    );
    const upload = (name: string) =>
      api.post<{ id: string }>("/stats/policies/docker-img/complete", {
        name,
        policy_bundle_id: bundle.id,
        run: ["node", "players/greedy.ts"],
      });
    const first = await upload("my-bot");
    expect(first.status).toBe(200);
    const res = await api.post<LeagueSubmission>("/v2/league-submissions", {
      league_id: tl.league.id,
      policy_version_id: first.body.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.player?.name).toBe("my-bot");
    const names = (
      await Promise.all(tl.divisions.map(async (d) => (await tl.leaderboard(d.id)) ?? []))
    ).flatMap((rows) => rows.map((r) => r.player_name));
    expect(names).toContain("my-bot");
    expect(names).not.toContain(newcomer.email.split("@")[0]);
    // A later policy competes as the same player: the name stays the persona's.
    const second = await upload("my-other-bot");
    const again = await api.post<LeagueSubmission>("/v2/league-submissions", {
      league_id: tl.league.id,
      policy_version_id: second.body.id,
    });
    expect(again.status).toBe(201);
    expect(again.body.player).toMatchObject({ id: res.body.player?.id, name: "my-bot" });
  });

  it("competes as the owner's default player when none is given and none is on the policy version", async () => {
    const owner = tl.commissioner;
    const bundle = await client(t.url, owner.token).get<{
      entries: { id: string; policy: { name: string } }[];
    }>("/stats/policy-versions?mine=true");
    const source = bundle.body.entries[0];
    if (!source) throw new Error("no policy version");
    const detail = await client(t.url, owner.token).get<{
      policy_bundle_id: string;
      run: string[];
    }>(`/v2/policy-versions/${source.id}`);
    const loose = await client(t.url, owner.token).post<{ id: string }>(
      "/stats/policies/docker-img/complete",
      { name: "playerless", policy_bundle_id: detail.body.policy_bundle_id, run: detail.body.run },
    );
    // The body coworld's `submit` sends: no player_id.
    const res = await client(t.url, owner.token).post<LeagueSubmission>("/v2/league-submissions", {
      league_id: tl.league.id,
      policy_version_id: loose.body.id,
      auto_champion: "always",
    });
    expect(res.status).toBe(201);
    const players = await client(t.url, owner.token).get<
      { id: string; is_default: boolean; user_id: string }[]
    >("/players");
    const defaults = players.body.filter((p) => p.is_default);
    expect(defaults).toHaveLength(1);
    expect(defaults[0]?.user_id).toBe(owner.id);
    expect(res.body.player?.id).toBe(defaults[0]?.id);
  });

  it("serves a policy version at /stats/policy-versions/{id} with the hosted service's flat names", async () => {
    const ada = await tl.addPlayer("Ada-flat");
    const api = client(t.url, tl.commissioner.token);
    const v2 = await api.get<Record<string, unknown>>(`/v2/policy-versions/${ada.policyVersionId}`);
    const stats = await api.get<{
      id: string;
      user_id: string;
      policy_id: string;
      name: string;
      policy: { id: string; name: string };
      policy_created_at: string;
    }>(`/stats/policy-versions/${ada.policyVersionId}`);
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual(v2.body);
    expect(stats.body.user_id).toBe(tl.commissioner.id);
    expect(stats.body.policy_id).toBe(stats.body.policy.id);
    expect(stats.body.name).toBe(stats.body.policy.name);
    expect(Date.parse(stats.body.policy_created_at)).not.toBeNaN();
    expect(
      (await api.get(`/stats/policy-versions/00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(404);
  });

  it("keeps a private league's submissions from people who cannot see it", async () => {
    const hidden = await createTestLeague(t, { public: false });
    const ivy = await hidden.addPlayer("Ivy");
    await hidden.submit(ivy);
    const anonymous = await client(t.url).get<LeagueSubmission[]>(
      `/v2/league-submissions?league_id=${hidden.league.id}`,
    );
    expect(anonymous.body).toEqual([]);
    const own = await client(t.url, hidden.commissioner.token).get<LeagueSubmission[]>(
      `/v2/league-submissions?league_id=${hidden.league.id}`,
    );
    expect(own.body).toHaveLength(1);
    const stranger = await t.newUser();
    const jo = await hidden.addPlayer("Jo", { owner: stranger });
    const res = await client(t.url, stranger.token).post<Invalid>("/v2/league-submissions", {
      league_id: hidden.league.id,
      policy_version_id: jo.policyVersionId,
      player_id: jo.id,
    });
    expect(res.status).toBe(422);
    expect(locs(res.body)).toEqual(["body.league_id"]);
  });
});

describe("a submission's limits", () => {
  it("refuses a user's player past the coworld's players_per_user with a 422 naming it", async () => {
    const tl = await createTestLeague(t, { manifest: { players_per_user: 2 } });
    const owner = await t.newUser();
    const [one, two, three] = [
      await tl.addPlayer("One", { owner }),
      await tl.addPlayer("Two", { owner }),
      await tl.addPlayer("Three", { owner }),
    ];
    await tl.submit(one, {}, owner.token);
    await tl.submit(two, {}, owner.token);
    // A new version of a player already in counts no further.
    const again = await tl.addVersion(two, "two-b", owner);
    expect((await tl.submit({ ...two, policyVersionId: again }, {}, owner.token)).status).toBe(
      "placed",
    );
    const over = await client(t.url, owner.token).post<Invalid>("/v2/league-submissions", {
      league_id: tl.league.id,
      policy_version_id: three.policyVersionId,
      player_id: three.id,
    });
    expect(over.status, over.text).toBe(422);
    expect(over.body.detail[0]?.loc).toEqual(["body", "player_id"]);
    expect(over.body.detail[0]?.type).toBe("players_per_user");
    expect(over.body.detail[0]?.msg).toContain("players_per_user is 2");
    // Another user's players are theirs to count.
    await tl.submit(await tl.addPlayer("Other"));
  }, 60_000);

  it("takes submissions_per_day from a user, then 429 naming it, not counting those whose episodes failed for infrastructure", async () => {
    const tl = await createTestLeague(t, { settings: { submissions_per_day: 2 } });
    const owner = await t.newUser();
    const ann = await tl.addPlayer("Ann", { owner });
    const ben = await tl.addPlayer("Ben", { owner });
    await tl.submit(ann, {}, owner.token);
    await tl.submit(ben, {}, owner.token);
    const third = async () =>
      client(t.url, owner.token).post<Failure>("/v2/league-submissions", {
        league_id: tl.league.id,
        policy_version_id: await tl.addVersion(ann, "ann-next", owner),
        player_id: ann.id,
      });
    const refused = await third();
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body.detail.type).toBe("submissions_per_day");
    expect(refused.body.detail.message).toContain("submissions_per_day");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    // Another user is counted apart.
    await tl.submit(await tl.addPlayer("Cat"));

    // The round's episode of Ann and Ben fails for infrastructure, every attempt: neither counts.
    const trigger = await client(t.url, tl.commissioner.token).post(
      `/v2/leagues/${tl.league.id}/trigger-round`,
    );
    expect(trigger.status, trigger.text).toBe(200);
    const runner = await scriptedRunner(t);
    for (let attempt = 0; attempt < 3; attempt++)
      for (const job of await runner.lease())
        expect(
          (await runner.fail(job, { error_type: "infrastructure", error: "machine lost" })).status,
        ).toBe(200);
    const accepted = await third();
    expect(accepted.status, accepted.text).toBe(201);
  }, 60_000);
});
