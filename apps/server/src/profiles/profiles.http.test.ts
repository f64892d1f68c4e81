// Players' public profiles over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set):
// anyone reads display name, avatar, policies and memberships in public leagues; only the
// owner (or the player itself, or an admin) changes them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { PlayerProfile } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague, type TestPlayer } from "../../testing/test-league.ts";

let t: TestServer;
let open: TestLeague;
let closed: TestLeague;
let owner: { id: string; token: string };
let player: TestPlayer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  open = await createTestLeague(t, { public: true });
  closed = await createTestLeague(t, { public: false });
  // The private league's commissioner owns the player and enters it in both leagues.
  owner = closed.commissioner;
  player = await closed.addPlayer("Pathfinder");
  await closed.submit(player);
  await open.submit(player, {}, owner.token);
}, 90_000);

afterAll(async () => {
  await t?.close();
});

describe("player profiles", () => {
  it("shows anyone the player's name, policies and memberships in public leagues", async () => {
    const res = await client(t.url).get<PlayerProfile>(`/v2/players/${player.id}/profile`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: player.id,
      name: "Pathfinder",
      display_name: "Pathfinder",
      avatar_url: null,
      bio: null,
    });
    expect(res.body.policies.flatMap((p) => p.versions.map((v) => v.id))).toContain(
      player.policyVersionId,
    );
    expect(res.body.memberships.map((m) => m.league.id)).toEqual([open.league.id]);
    expect(res.body.memberships[0]).toMatchObject({
      division: { id: open.divisions[0]?.id },
      policy_version: { id: player.policyVersionId },
    });
    // Its owner, the private league's commissioner, sees the private membership too.
    const mine = await client(t.url, owner.token).get<PlayerProfile>(
      `/v2/players/${player.id}/profile`,
    );
    expect(mine.body.memberships.map((m) => m.league.id).sort()).toEqual(
      [open.league.id, closed.league.id].sort(),
    );
    expect(
      (await client(t.url).get("/v2/players/ply_00000000-0000-4000-8000-000000000000/profile"))
        .status,
    ).toBe(404);
  });

  it("lets the owner, the player itself and an admin change it, and nobody else", async () => {
    const set = await client(t.url, owner.token).patch<PlayerProfile>(
      `/v2/players/${player.id}/profile`,
      {
        display_name: "The Pathfinder",
        avatar_url: "https://example.org/a.png",
        bio: "Finds paths.",
      },
    );
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      display_name: "The Pathfinder",
      avatar_url: "https://example.org/a.png",
      bio: "Finds paths.",
    });
    const login = await client(t.url, owner.token).post<{ token: string }>(
      `/players/${player.id}/login`,
      {},
    );
    const self = await client(t.url, login.body.token).patch<PlayerProfile>(
      `/v2/players/${player.id}/profile`,
      { bio: null },
    );
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ display_name: "The Pathfinder", bio: null });
    expect(
      (
        await client(t.url, t.adminToken).patch(`/v2/players/${player.id}/profile`, {
          display_name: null,
        })
      ).status,
    ).toBe(200);
    expect(
      (await client(t.url).get<PlayerProfile>(`/v2/players/${player.id}/profile`)).body
        .display_name,
    ).toBe("Pathfinder");

    const stranger = await t.newUser();
    expect(
      (
        await client(t.url, stranger.token).patch(`/v2/players/${player.id}/profile`, {
          display_name: "Mine now",
        })
      ).status,
    ).toBe(403);
    expect(
      (await client(t.url).patch(`/v2/players/${player.id}/profile`, { display_name: "Anon" }))
        .status,
    ).toBe(401);
    expect(
      (
        await client(t.url, owner.token).patch(`/v2/players/${player.id}/profile`, {
          avatar_url: "javascript:alert(1)",
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await client(t.url, owner.token).patch(`/v2/players/${player.id}/profile`, {
          colour: "red",
        })
      ).status,
    ).toBe(422);
  });
});
