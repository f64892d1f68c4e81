// Lobbies over real HTTP: seats of every kind, claim and leave, who may start and cancel, the
// wrong-state 409s, and a started lobby ending with its episode (played here by a scripted
// runner; lobbies.e2e.test.ts plays it on a real runner). SQLite, or PostgreSQL when set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  EpisodeRequest,
  ExperienceRequestDetail,
  HostedGameJoinResponse,
  HostedGameSession,
  Lobby,
  LobbyAccess,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
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

const seats = () => [
  { kind: "human", user_id: bob.id },
  { kind: "human_open" },
  { kind: "league_player", player_id: ada.id },
  { kind: "closed" },
];

describe("lobbies", () => {
  it("answers who may create and join", async () => {
    const anonymous = await client(t.url).get<LobbyAccess>(
      `/v2/leagues/${tl.league.id}/lobby-access`,
    );
    expect(anonymous.body).toMatchObject({ can_create: false, can_join: false });
    expect(anonymous.body.reason).toContain("sign in");
    const signedIn = await client(t.url, bob.token).get<LobbyAccess>(
      `/v2/leagues/${tl.league.id}/lobby-access`,
    );
    expect(signedIn.body).toEqual({
      league_id: tl.league.id,
      can_create: true,
      can_join: true,
      reason: null,
    });
  });

  it("refuses seats that do not add up or name nobody", async () => {
    const api = client(t.url, bob.token);
    const post = (body: unknown) =>
      api.post<{ detail: { loc: unknown[] }[] }>(`/v2/leagues/${tl.league.id}/lobbies`, body);
    expect((await post({ num_players: 3, seats: seats() })).body.detail[0]?.loc).toEqual([
      "body",
      "seats",
    ]);
    const missing = await post({
      num_players: 2,
      seats: [
        { kind: "human" },
        { kind: "league_player", player_id: `ply_00000000-0000-4000-8000-000000000000` },
      ],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d) => d.loc)).toEqual([
      ["body", "seats", 0, "user_id"],
      ["body", "seats", 1, "player_id"],
    ]);
    expect(
      (await post({ num_players: 2, seats: [{ kind: "human_open" }, { kind: "closed" }] })).body
        .detail[0]?.loc,
    ).toEqual(["body", "seats"]);
    expect(
      (await post({ num_players: 2, seats: [{ kind: "human_open" }, { kind: "robot" }] })).status,
    ).toBe(422);
    expect(
      (
        await post({
          num_players: 2,
          variant_id: "nope",
          seats: [{ kind: "human_open" }, { kind: "random" }],
        })
      ).body.detail[0]?.loc,
    ).toEqual(["body", "variant_id"]);
  });

  it("is claimed, left and started by the right people, plays one episode and ends with it", async () => {
    const asBob = client(t.url, bob.token);
    const asAda = client(t.url, tl.commissioner.token);
    const asCarol = client(t.url, carol.token);
    const created = await asBob.post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, {
      num_players: 4,
      seats: seats(),
      game_config_overrides: { turns: 5 },
    });
    expect(created.status, created.text).toBe(201);
    const lobby = created.body;
    expect(lobby).toMatchObject({
      status: "open",
      creator_user_id: bob.id,
      experience_request_id: null,
    });
    expect(lobby.seats.map((s) => [s.kind, s.user_id, s.player_id])).toEqual([
      ["human", bob.id, null],
      ["human_open", null, null],
      ["league_player", null, ada.id],
      ["closed", null, null],
    ]);
    const path = `/v2/lobbies/${lobby.id}`;

    expect(
      (await asAda.post(`${path}/seats/0/claim`, { policy_version_id: ada.policyVersionId }))
        .status,
    ).toBe(403);
    expect(
      (await asAda.post(`${path}/seats/2/claim`, { policy_version_id: ada.policyVersionId }))
        .status,
    ).toBe(409);
    expect(
      (await asAda.post(`${path}/seats/7/claim`, { policy_version_id: ada.policyVersionId }))
        .status,
    ).toBe(404);
    expect(
      (await asBob.post(`${path}/seats/1/claim`, { policy_version_id: ada.policyVersionId }))
        .status,
    ).toBe(422);
    expect(
      (await asBob.post(`${path}/seats/0/claim`, { policy_version_id: bobPlayer.policyVersionId }))
        .status,
    ).toBe(200);
    const notReady = await asBob.post<{ detail: { type: string } }>(`${path}/start`);
    expect([notReady.status, notReady.body.detail.type]).toEqual([409, "lobby_not_ready"]);
    expect(
      (await asAda.post(`${path}/seats/1/claim`, { policy_version_id: ada.policyVersionId }))
        .status,
    ).toBe(200);
    const taken = await asBob.post<{ detail: { type: string } }>(`${path}/seats/1/claim`, {
      policy_version_id: bobPlayer.policyVersionId,
    });
    expect([taken.status, taken.body.detail.type]).toEqual([409, "seat_taken"]);

    const left = await asBob.post<Lobby>(`${path}/leave`);
    expect(left.body.seats[0]).toMatchObject({
      user_id: bob.id,
      policy_version_id: null,
      claimed_at: null,
    });
    expect((await asBob.post(`${path}/leave`)).status).toBe(409);
    expect(
      (await asBob.post(`${path}/seats/0/claim`, { policy_version_id: bobPlayer.policyVersionId }))
        .status,
    ).toBe(200);

    expect((await asCarol.post(`${path}/start`)).status).toBe(403);
    expect((await asCarol.post(`${path}/cancel`)).status).toBe(403);
    const started = await asBob.post<Lobby>(`${path}/start`);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: "running" });
    expect(started.body.experience_request_id).toMatch(/^xreq_/);
    expect(started.body.episode_request_id).not.toBeNull();
    for (const action of ["start", "cancel", "leave"])
      expect((await asBob.post(`${path}/${action}`)).status, action).toBe(409);
    expect(
      (
        await asCarol.post(`${path}/seats/1/claim`, {
          policy_version_id: bobPlayer.policyVersionId,
        })
      ).status,
    ).toBe(409);

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
    const request = await asBob.get<ExperienceRequestDetail>(
      `/v2/experience-requests/${ended.experience_request_id ?? ""}`,
    );
    expect(request.body).toMatchObject({
      status: "completed",
      episode_count: 1,
      completed_count: 1,
      league_id: tl.league.id,
    });
    expect(request.body.episodes[0]?.id).toBe(ended.episode_request_id);
  });

  it("is cancelled while open by its creator or the commissioner, and a create with a key happens once", async () => {
    const body = {
      idempotency_key: "lobby-once",
      num_players: 2,
      seats: [{ kind: "human_open" }, { kind: "random" }],
    };
    const first = await client(t.url, carol.token).post<Lobby>(
      `/v2/leagues/${tl.league.id}/lobbies`,
      body,
    );
    const again = await client(t.url, carol.token).post<Lobby>(
      `/v2/leagues/${tl.league.id}/lobbies`,
      body,
    );
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    const path = `/v2/lobbies/${first.body.id}`;
    expect((await client(t.url, bob.token).post(`${path}/cancel`)).status).toBe(403);
    const cancelled = await client(t.url, tl.commissioner.token).post<Lobby>(`${path}/cancel`);
    expect(cancelled.body).toMatchObject({ status: "cancelled" });
    expect((await client(t.url, carol.token).post(`${path}/cancel`)).status).toBe(409);
    expect((await client(t.url, carol.token).post(`${path}/start`)).status).toBe(409);
    expect(
      (await client(t.url).get(`/v2/lobbies/lby_00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(404);
  });

  it("is changed while open by those who manage it: its settings, a seat, who sits where", async () => {
    const asBob = client(t.url, bob.token);
    const asCarol = client(t.url, carol.token);
    const created = await asBob.post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, {
      num_players: 4,
      seats: seats(),
    });
    const path = `/v2/lobbies/${created.body.id}`;

    const patched = await asBob.patch<Lobby>(path, {
      variant_id: "duel-small",
      game_config_overrides: { turns: 7 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      variant_id: "duel-small",
      game_config_overrides: { turns: 7 },
    });
    expect((await asCarol.patch(path, { game_config_overrides: {} })).status).toBe(403);
    const badVariant = await asBob.patch<{ detail: { loc: unknown[] }[] }>(path, {
      variant_id: "nope",
    });
    expect([badVariant.status, badVariant.body.detail[0]?.loc]).toEqual([
      422,
      ["body", "variant_id"],
    ]);
    expect((await asBob.patch(path, {})).status).toBe(422);
    expect((await asBob.patch(path, { colour: "red" })).status).toBe(422);

    // Carol claims the open seat; Bob (the creator) turns it into a seat reserved for her: her claim goes.
    expect(
      (await asCarol.post(`${path}/seats/1/claim`, { policy_version_id: ada.policyVersionId }))
        .status,
    ).toBe(422);
    expect((await asCarol.post(`${path}/seats/1/claim`, {})).status).toBe(200);
    const reserved = await asBob.put<Lobby>(`${path}/seats/1`, {
      kind: "human",
      user_id: carol.id,
    });
    expect(reserved.status, reserved.text).toBe(200);
    expect(reserved.body.seats[1]).toMatchObject({
      kind: "human",
      user_id: carol.id,
      claimed_at: null,
      policy_version_id: null,
    });
    expect((await asCarol.put(`${path}/seats/1`, { kind: "human_open" })).status).toBe(403);
    const noUser = await asBob.put<{ detail: { loc: unknown[] }[] }>(`${path}/seats/1`, {
      kind: "human",
    });
    expect([noUser.status, noUser.body.detail[0]?.loc]).toEqual([422, ["body", "user_id"]]);
    // Closing two of the three played seats leaves one player: GridRush needs two.
    expect((await asBob.put(`${path}/seats/0`, { kind: "closed" })).status).toBe(200);
    const tooFew = await asBob.put<{ detail: { loc: unknown[] }[] }>(`${path}/seats/1`, {
      kind: "closed",
    });
    expect([tooFew.status, tooFew.body.detail[0]?.loc]).toEqual([422, ["body", "kind"]]);
    expect((await asBob.put(`${path}/seats/9`, { kind: "closed" })).status).toBe(404);
    expect((await asBob.put(`${path}/seats/0`, { kind: "human", user_id: bob.id })).status).toBe(
      200,
    );

    // Emptying a seat: your own, or anyone's when you manage the lobby.
    expect((await asCarol.post(`${path}/seats/1/claim`, {})).status).toBe(200);
    expect(
      (await asBob.post(`${path}/seats/0/claim`, { policy_version_id: bobPlayer.policyVersionId }))
        .status,
    ).toBe(200);
    expect((await asCarol.delete(`${path}/seats/0/player`)).status).toBe(403);
    const own = await asCarol.delete<Lobby>(`${path}/seats/1/player`);
    expect(own.status, own.text).toBe(200);
    expect(own.body.seats[1]).toMatchObject({ kind: "human", user_id: carol.id, claimed_at: null });
    expect((await asCarol.delete(`${path}/seats/1/player`)).status).toBe(409);
    expect((await asCarol.post(`${path}/seats/1/claim`, {})).status).toBe(200);
    const kicked = await asBob.delete<Lobby>(`${path}/seats/1/player`);
    expect(kicked.body.seats[1]).toMatchObject({ user_id: carol.id, claimed_at: null });

    expect((await asBob.post(`${path}/cancel`)).status).toBe(200);
    for (const [method, url, body] of [
      ["patch", path, { game_config_overrides: {} }],
      ["put", `${path}/seats/1`, { kind: "human_open" }],
      ["delete", `${path}/seats/0/player`, undefined],
    ] as const) {
      const res =
        method === "patch"
          ? await asBob.patch(url, body)
          : method === "put"
            ? await asBob.put(url, body)
            : await asBob.delete(url);
      expect(res.status, `${method} ${url}`).toBe(409);
    }
  });

  it("is launched for live play: people join their slots, champions fill the others, and it is ended early", async () => {
    const asBob = client(t.url, bob.token);
    const asCarol = client(t.url, carol.token);
    const created = await asBob.post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, {
      num_players: 4,
      seats: [
        { kind: "human", user_id: bob.id },
        { kind: "human_open" },
        { kind: "league_player", player_id: ada.id },
        { kind: "random" },
      ],
    });
    const path = `/v2/lobbies/${created.body.id}`;
    expect((await asCarol.post(`${path}/launch`)).status).toBe(403);
    const launched = await asBob.post<Lobby>(`${path}/launch`);
    expect(launched.status, launched.text).toBe(200);
    expect(launched.body).toMatchObject({
      status: "running",
      experience_request_id: null,
      episode_request_id: null,
    });
    const sessionId = launched.body.play_session_id ?? "";
    for (const action of ["launch", "start", "cancel"])
      expect((await asBob.post(`${path}/${action}`)).status, action).toBe(409);

    const session = await asBob.get<HostedGameSession>(`/v2/coworlds/play/session/${sessionId}`);
    expect(session.status, session.text).toBe(200);
    expect(session.body).toMatchObject({
      lobby_id: created.body.id,
      status: "waiting",
      player_count: 4,
      episode_request_id: null,
    });
    expect(
      session.body.players.map((p) => [p.slot, p.user_id, p.player_id, p.joined_at === null]),
    ).toEqual([
      [0, bob.id, null, true],
      [1, null, null, true],
      [2, null, ada.id, true],
      [3, null, ada.id, true],
    ]);
    // Carol takes the open slot; Bob his reserved one; then the game is queued.
    const carolJoin = await asCarol.post<HostedGameJoinResponse>(
      `/v2/coworlds/play/session/${sessionId}/join`,
    );
    expect(carolJoin.body).toMatchObject({ slot: 1, player: { user_id: carol.id } });
    const bobJoin = await asBob.post<HostedGameJoinResponse>(
      `/v2/coworlds/play/session/${sessionId}/join`,
    );
    expect(bobJoin.body).toMatchObject({ slot: 0, player: { user_id: bob.id } });
    expect(bobJoin.body.player_url).toMatch(
      new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/v2/play-sessions/${sessionId}/socket\\?token=`),
    );
    const started = (await asBob.get<HostedGameSession>(`/v2/coworlds/play/session/${sessionId}`))
      .body;
    expect(started.episode_request_id).toMatch(/^ereq_/);
    const episode = (
      await asBob.get<EpisodeRequest>(`/v2/episode-requests/${started.episode_request_id ?? ""}`)
    ).body;
    expect(episode.participants.map((p) => [p.position, p.player_id])).toEqual([
      [0, null],
      [1, null],
      [2, ada.id],
      [3, ada.id],
    ]);

    expect((await asCarol.post(`${path}/end`)).status).toBe(403);
    const ended = await asBob.post<Lobby>(`${path}/end`);
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body).toMatchObject({
      status: "cancelled",
      episode_request_id: started.episode_request_id,
    });
    expect(ended.body.error).toContain("ended by");
    expect((await asBob.post(`${path}/end`)).status).toBe(409);
    const after = (await asBob.get<HostedGameSession>(`/v2/coworlds/play/session/${sessionId}`))
      .body;
    expect(after.status).toBe("cancelled");
    expect(
      (await asBob.get<EpisodeRequest>(`/v2/episode-requests/${started.episode_request_id ?? ""}`))
        .body.status,
    ).toBe("cancelled");
    expect((await asCarol.post(`/v2/coworlds/play/session/${sessionId}/join`)).status).toBe(409);
  });

  it("is not launched live with a champion that has no bundle: its image runs on docker only", async () => {
    // Last in the file: the image's player joins the league, and later draws would see it.
    const api = client(t.url, tl.commissioner.token);
    const image = await api.post<{ image: { id: string } }>("/v2/container_images/upload", {
      name: "ghcr.io/someone/lobby-policy:1",
      client_hash: "lobby",
    });
    await api.post("/v2/container_images/upload/complete", { id: image.body.image.id });
    const imaged = await tl.addPlayer("Imago");
    const version = await api.post<{ id: string }>("/stats/policies/docker-img/complete", {
      name: "imago-image",
      container_image_id: image.body.image.id,
      run: ["node", "players/greedy.ts"],
      player_id: imaged.id,
    });
    expect(version.status, version.text).toBe(200);
    await tl.submit({ ...imaged, policyVersionId: version.body.id });
    const asBob = client(t.url, bob.token);
    const created = await asBob.post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, {
      num_players: 2,
      seats: [
        { kind: "human", user_id: bob.id },
        { kind: "league_player", player_id: imaged.id },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const launched = await asBob.post<{ detail: { type: string; message: string } }>(
      `/v2/lobbies/${created.body.id}/launch`,
    );
    expect(launched.status, launched.text).toBe(409);
    expect(launched.body.detail.type).toBe("lobby_not_ready");
    expect(launched.body.detail.message).toContain("no bundle");
    expect((await asBob.get<Lobby>(`/v2/lobbies/${created.body.id}`)).body.status).toBe("open");
  });
});
