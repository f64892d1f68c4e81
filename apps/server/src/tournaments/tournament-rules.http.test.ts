// Tournaments over real HTTP: seeding from the standings, who may change a tournament, and bad
// input refused with where and why (SQLite, or PostgreSQL when DATABASE_URL is set).
import { beforeAll, describe, expect, it } from "vitest";

import type { Tournament } from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";
import { useTournamentFixture, type ValidationBody } from "../../testing/tournaments.ts";

const fixture = useTournamentFixture();
const { api, versions, create, act } = fixture;
let t: TestServer;
beforeAll(() => {
  ({ t } = fixture.current());
});

describe("seeding from the standings", () => {
  it("enters the league's competing champions when no policy versions are given", async () => {
    const fresh = await createTestLeague(t);
    const members = [
      await fresh.addPlayer("Hal"),
      await fresh.addPlayer("Ivy"),
      await fresh.addPlayer("Jon"),
    ];
    for (const m of members) await fresh.submit(m);
    const res = await client(t.url, fresh.commissioner.token).post<Tournament>(
      `/v2/leagues/${fresh.league.id}/tournaments`,
      { name: "Seeded", format: "single_elimination" },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.seeding).toBe("standings");
    expect(res.body.entrants.map((e) => e.seed)).toEqual([1, 2, 3]);
    expect(res.body.entrants.map((e) => e.policy_version_id).sort()).toEqual(
      members.map((m) => m.policyVersionId).sort(),
    );
  }, 60_000);
});

describe("who may change a tournament", () => {
  it("refuses others with 403, hides a private league's with 404, lets an admin act", async () => {
    const other = await t.newUser();
    const cup = (
      await create({
        name: "Guarded",
        format: "single_elimination",
        policy_version_ids: versions(2),
      })
    ).body;
    expect(
      (
        await create(
          { name: "Mine", format: "single_elimination", policy_version_ids: versions(2) },
          other.token,
        )
      ).status,
    ).toBe(403);
    for (const action of ["lock", "start", "advance", "cancel"])
      expect((await act(cup.id, action, other.token)).status, action).toBe(403);
    expect(
      (await client(t.url, other.token).patch(`/v2/tournaments/${cup.id}`, { name: "x" })).status,
    ).toBe(403);
    expect((await client(t.url, other.token).get(`/v2/tournaments/${cup.id}`)).status).toBe(200);
    expect((await http("POST", `${t.url}/v2/tournaments/${cup.id}:lock`)).status).toBe(401);
    expect((await act(cup.id, "lock", t.adminToken)).body.status).toBe("locked");

    const hidden = await createTestLeague(t, { public: false });
    const p1 = await hidden.addPlayer("Fay");
    const p2 = await hidden.addPlayer("Gus");
    const secret = await client(t.url, hidden.commissioner.token).post<Tournament>(
      `/v2/leagues/${hidden.league.id}/tournaments`,
      {
        name: "Secret",
        format: "single_elimination",
        policy_version_ids: [p1.policyVersionId, p2.policyVersionId],
      },
    );
    expect(secret.status, secret.text).toBe(201);
    expect((await client(t.url, other.token).get(`/v2/tournaments/${secret.body.id}`)).status).toBe(
      404,
    );
    expect((await client(t.url).get(`/v2/leagues/${hidden.league.id}/tournaments`)).status).toBe(
      404,
    );
    expect((await act(secret.body.id, "lock", other.token)).status).toBe(404);
    expect(
      (
        await create(
          { name: "x", format: "single_elimination", policy_version_ids: versions(2) },
          other.token,
          hidden.league.id,
        )
      ).status,
    ).toBe(404);
  }, 60_000);
});

describe("bad input", () => {
  it("refuses unknown formats, naming body.format, in a create and in a change", async () => {
    const res = await create({ name: "Cup", format: "swiss", policy_version_ids: versions(2) });
    expect(res.status).toBe(422);
    expect(
      res.body.detail.some((d) => d.loc.join(".") === "body.format"),
      res.text,
    ).toBe(true);
    const draft = (
      await create({ name: "Cup", format: "single_elimination", policy_version_ids: versions(2) })
    ).body;
    const patched = await api().patch<ValidationBody>(`/v2/tournaments/${draft.id}`, {
      format: "knockout",
    });
    expect(patched.status).toBe(422);
    expect(patched.body.detail[0]?.loc).toEqual(["body", "format"]);
    const changed = await api().patch<Tournament>(`/v2/tournaments/${draft.id}`, {
      format: "double_elimination",
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.format).toBe("double_elimination");
  });

  it("names the entrants that are wrong, and a wave too big for one experience request", async () => {
    const unknown = await create({
      name: "Cup",
      format: "single_elimination",
      policy_version_ids: [versions(1)[0], "00000000-0000-4000-8000-000000000000"],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]?.loc).toEqual(["body", "policy_version_ids", 1]);
    const twice = await create({
      name: "Cup",
      format: "single_elimination",
      policy_version_ids: [versions(1)[0], versions(1)[0]],
    });
    expect(twice.status).toBe(422);
    expect(twice.body.detail[0]?.loc.slice(0, 2)).toEqual(["body", "policy_version_ids"]);
    // No competing champions in the standings: entrants must be given.
    const seeded = await create({ name: "Cup", format: "single_elimination" });
    expect(seeded.status).toBe(422);
    expect(seeded.body.detail[0]?.loc).toEqual(["body", "policy_version_ids"]);
    expect(
      (await api().get(`/v2/tournaments/tour_00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(404);
    expect((await api().get(`/v2/tournaments/nope`)).status).toBe(422);
  });
});
