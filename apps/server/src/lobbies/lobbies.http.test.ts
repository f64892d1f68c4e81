// Lobbies over real HTTP: seats of every kind, claim and leave, who may start and cancel, the
// wrong-state 409s, and a started lobby ending with its episode (played here by a scripted
// runner; lobbies.e2e.test.ts plays it on a real runner). SQLite, or PostgreSQL when set.
import type { ExperienceRequestDetail, Lobby, LobbyAccess } from "@gauntlet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually, scriptedRunner, type TestLeague, type TestPlayer } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let bob: { id: string; token: string };
let carol: { id: string; token: string };
let ada: TestPlayer;
let bobPlayer: TestPlayer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  bob = await t.newUser();
  carol = await t.newUser();
  ada = await tl.addPlayer("Ada");
  await tl.submit(ada);
  bobPlayer = await tl.addPlayer("Bob", { owner: bob, baseline: "random" });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const seats = () => [{ kind: "human", user_id: bob.id }, { kind: "human_open" }, { kind: "league_player", player_id: ada.id }, { kind: "closed" }];

describe("lobbies", () => {
  it("answers who may create and join", async () => {
    const anonymous = await client(t.url).get<LobbyAccess>(`/v2/leagues/${tl.league.id}/lobby-access`);
    expect(anonymous.body).toMatchObject({ can_create: false, can_join: false });
    expect(anonymous.body.reason).toContain("sign in");
    const signedIn = await client(t.url, bob.token).get<LobbyAccess>(`/v2/leagues/${tl.league.id}/lobby-access`);
    expect(signedIn.body).toEqual({ league_id: tl.league.id, can_create: true, can_join: true, reason: null });
  });

  it("refuses seats that do not add up or name nobody", async () => {
    const api = client(t.url, bob.token);
    const post = (body: unknown) => api.post<{ detail: { loc: unknown[] }[] }>(`/v2/leagues/${tl.league.id}/lobbies`, body);
    expect((await post({ num_players: 3, seats: seats() })).body.detail[0]?.loc).toEqual(["body", "seats"]);
    const missing = await post({ num_players: 2, seats: [{ kind: "human" }, { kind: "league_player", player_id: `ply_00000000-0000-4000-8000-000000000000` }] });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d) => d.loc)).toEqual([
      ["body", "seats", 0, "user_id"],
      ["body", "seats", 1, "player_id"],
    ]);
    expect((await post({ num_players: 2, seats: [{ kind: "human_open" }, { kind: "closed" }] })).body.detail[0]?.loc).toEqual(["body", "seats"]);
    expect((await post({ num_players: 2, seats: [{ kind: "human_open" }, { kind: "robot" }] })).status).toBe(422);
    expect((await post({ num_players: 2, variant_id: "nope", seats: [{ kind: "human_open" }, { kind: "random" }] })).body.detail[0]?.loc).toEqual(["body", "variant_id"]);
  });

  it("is claimed, left and started by the right people, plays one episode and ends with it", async () => {
    const asBob = client(t.url, bob.token);
    const asAda = client(t.url, tl.commissioner.token);
    const asCarol = client(t.url, carol.token);
    const created = await asBob.post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, { num_players: 4, seats: seats(), game_config_overrides: { turns: 5 } });
    expect(created.status, created.text).toBe(201);
    const lobby = created.body;
    expect(lobby).toMatchObject({ status: "open", creator_user_id: bob.id, experience_request_id: null });
    expect(lobby.seats.map((s) => [s.kind, s.user_id, s.player_id])).toEqual([
      ["human", bob.id, null],
      ["human_open", null, null],
      ["league_player", null, ada.id],
      ["closed", null, null],
    ]);
    const path = `/v2/lobbies/${lobby.id}`;

    expect((await asAda.post(`${path}/seats/0/claim`, { policy_version_id: ada.policyVersionId })).status).toBe(403);
    expect((await asAda.post(`${path}/seats/2/claim`, { policy_version_id: ada.policyVersionId })).status).toBe(409);
    expect((await asAda.post(`${path}/seats/7/claim`, { policy_version_id: ada.policyVersionId })).status).toBe(404);
    expect((await asBob.post(`${path}/seats/1/claim`, { policy_version_id: ada.policyVersionId })).status).toBe(422);
    expect((await asBob.post(`${path}/seats/0/claim`, { policy_version_id: bobPlayer.policyVersionId })).status).toBe(200);
    const notReady = await asBob.post<{ detail: { type: string } }>(`${path}/start`);
    expect([notReady.status, notReady.body.detail.type]).toEqual([409, "lobby_not_ready"]);
    expect((await asAda.post(`${path}/seats/1/claim`, { policy_version_id: ada.policyVersionId })).status).toBe(200);
    const taken = await asBob.post<{ detail: { type: string } }>(`${path}/seats/1/claim`, { policy_version_id: bobPlayer.policyVersionId });
    expect([taken.status, taken.body.detail.type]).toEqual([409, "seat_taken"]);

    const left = await asBob.post<Lobby>(`${path}/leave`);
    expect(left.body.seats[0]).toMatchObject({ user_id: bob.id, policy_version_id: null, claimed_at: null });
    expect((await asBob.post(`${path}/leave`)).status).toBe(409);
    expect((await asBob.post(`${path}/seats/0/claim`, { policy_version_id: bobPlayer.policyVersionId })).status).toBe(200);

    expect((await asCarol.post(`${path}/start`)).status).toBe(403);
    expect((await asCarol.post(`${path}/cancel`)).status).toBe(403);
    const started = await asBob.post<Lobby>(`${path}/start`);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: "running" });
    expect(started.body.experience_request_id).toMatch(/^xreq_/);
    expect(started.body.episode_request_id).not.toBeNull();
    for (const action of ["start", "cancel", "leave"]) expect((await asBob.post(`${path}/${action}`)).status, action).toBe(409);
    expect((await asCarol.post(`${path}/seats/1/claim`, { policy_version_id: bobPlayer.policyVersionId })).status).toBe(409);

    const runner = await scriptedRunner(t);
    const jobs = await runner.runQueued((names) => names.map((_, i) => i));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.players.map((p) => p.display_name)).toEqual(["Bob", "Ada", "Ada"]);
    // The experience request settles when the episode's completion is handled, then the lobby.
    const ended = await eventually("the lobby to end", async () => {
      const read = (await asCarol.get<Lobby>(path)).body;
      return read.status === "running" ? null : read;
    });
    expect(ended).toMatchObject({ status: "completed", error: null });
    expect(ended.ended_at).not.toBeNull();
    const request = await asBob.get<ExperienceRequestDetail>(`/v2/experience-requests/${ended.experience_request_id ?? ""}`);
    expect(request.body).toMatchObject({ status: "completed", episode_count: 1, completed_count: 1, league_id: tl.league.id });
    expect(request.body.episodes[0]?.id).toBe(ended.episode_request_id);
  });

  it("is cancelled while open by its creator or the commissioner, and a create with a key happens once", async () => {
    const body = { idempotency_key: "lobby-once", num_players: 2, seats: [{ kind: "human_open" }, { kind: "random" }] };
    const first = await client(t.url, carol.token).post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, body);
    const again = await client(t.url, carol.token).post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, body);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    const path = `/v2/lobbies/${first.body.id}`;
    expect((await client(t.url, bob.token).post(`${path}/cancel`)).status).toBe(403);
    const cancelled = await client(t.url, tl.commissioner.token).post<Lobby>(`${path}/cancel`);
    expect(cancelled.body).toMatchObject({ status: "cancelled" });
    expect((await client(t.url, carol.token).post(`${path}/cancel`)).status).toBe(409);
    expect((await client(t.url, carol.token).post(`${path}/start`)).status).toBe(409);
    expect((await client(t.url).get(`/v2/lobbies/lby_00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});
