// Hosted games over real HTTP, in the hosted service's shapes (its Python client's models are
// the reference): slots joined by people and programs, the game queued when the last is taken,
// who may read and end a session, the two pages, and hosted replays. No runner here:
// play-session.e2e.test.ts plays one in the browser. SQLite, or PostgreSQL when set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  EpisodeRequest,
  HostedGameCreateResponse,
  HostedGameJoinResponse,
  HostedGameSession,
  PlayModule,
  ReplaySessionResponse,
} from "@gauntlet/core";

import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, scriptedRunner, type TestLeague } from "../../testing/test-league.ts";
import { OPEN_SESSIONS_PER_USER } from "./session-limits.ts";
import { failSession } from "./sessions.ts";

let t: TestServer;
let tl: TestLeague;
let carol: { id: string; token: string };
let dave: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  carol = await t.newUser();
  dave = await t.newUser();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function uploadModule(kind: "player_client" | "replay_viewer"): Promise<PlayModule> {
  const res = await uploadGridrushPlayModule(t.url, tl, kind);
  expect(res.status).toBe(201);
  return (await res.json()) as PlayModule;
}

type Problem = { detail: { loc: unknown[]; type: string }[] | { type: string; message: string } };

describe("hosted games", () => {
  it("answers the hosted service's create shape, and names what is wrong in a bad create", async () => {
    const host = client(t.url, tl.commissioner.token);
    // The body the hosted service's Python client sends.
    const created = await host.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
      variant_id: null,
      allow_spectators: false,
    });
    expect(created.status, created.text).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual([
      "global_url",
      "join_url",
      "lobby_url",
      "player_count",
      "session_id",
    ]);
    expect(created.body).toMatchObject({ player_count: 2, global_url: null });
    expect(created.body.join_url).toBe(
      `${t.url}/v2/coworlds/play/session/${created.body.session_id}/play`,
    );
    expect(created.body.lobby_url).toBe(
      `${t.url}/v2/coworlds/play/session/${created.body.session_id}/lobby`,
    );

    const bad = async (body: unknown) => {
      const res = await host.post<Problem>("/v2/coworlds/play/session", body);
      expect(res.status, res.text).toBe(422);
      return Array.isArray(res.body.detail) ? res.body.detail[0]?.loc : undefined;
    };
    expect(await bad({ coworld_id: "cow_00000000-0000-4000-8000-000000000000" })).toEqual([
      "body",
      "coworld_id",
    ]);
    expect(await bad({ coworld_id: tl.coworldId, variant_id: "nope" })).toEqual([
      "body",
      "variant_id",
    ]);
    expect(await bad({ coworld_id: tl.coworldId, player_count: 5 })).toEqual([
      "body",
      "player_count",
    ]);
    expect(await bad({ coworld_id: tl.coworldId, allow_spectators: "yes" })).toEqual([
      "body",
      "allow_spectators",
    ]);
    expect(await bad({ coworld_id: tl.coworldId, colour: "red" })).toEqual(["body", "colour"]);
    expect(
      (await client(t.url).post("/v2/coworlds/play/session", { coworld_id: tl.coworldId })).status,
    ).toBe(401);
  });

  it("fills its slots from joins, queues the game with the last one, and is ended by its creator", async () => {
    const host = client(t.url, tl.commissioner.token);
    const asCarol = client(t.url, carol.token);
    const created = await host.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
      variant_id: "ffa-4",
      player_count: 3,
      allow_spectators: true,
      game_config: { turn_timeout_ms: 5_000 },
    });
    const id = created.body.session_id;
    const joinPath = `/v2/coworlds/play/session/${id}/join`;

    const first = await asCarol.post<HostedGameJoinResponse>(joinPath);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      slot: 0,
      player: { slot: 0, user_id: carol.id, player_id: null, player_name: null },
      client_url: null,
    });
    expect(first.body.player_url).toMatch(
      new RegExp(`^ws://.+/v2/play-sessions/${id}/socket\\?token=join_`),
    );
    // Anonymous joins take the next slot each time; a signed-in person gets theirs back, at a new address.
    const anon = await client(t.url).post<HostedGameJoinResponse>(joinPath);
    expect([anon.status, anon.body.slot, anon.body.player.label, anon.body.player.user_id]).toEqual(
      [200, 1, "Player 2", null],
    );
    const again = await asCarol.post<HostedGameJoinResponse>(joinPath);
    expect(again.body.slot).toBe(0);
    expect(again.body.player_url).not.toBe(first.body.player_url);

    const waiting = await host.get<HostedGameSession>(`/v2/coworlds/play/session/${id}`);
    expect(waiting.body).toMatchObject({
      status: "waiting",
      player_count: 3,
      episode_request_id: null,
      allow_spectators: true,
      variant_id: "ffa-4",
    });
    expect(waiting.body.players.map((p) => p.joined_at !== null)).toEqual([true, true, false]);

    expect((await client(t.url).post(joinPath)).status).toBe(200);
    // Full: a stranger is answered as for a session that does not exist; the creator hears why.
    expect((await client(t.url).post(joinPath)).status).toBe(404);
    const full = await host.post<Problem>(joinPath);
    expect([full.status, (full.body.detail as { type: string }).type]).toEqual([
      409,
      "session_full",
    ]);
    const started = (await asCarol.get<HostedGameSession>(`/v2/coworlds/play/session/${id}`)).body;
    expect(started.episode_request_id).toMatch(/^ereq_/);
    const episode = (
      await host.get<EpisodeRequest>(`/v2/episode-requests/${started.episode_request_id ?? ""}`)
    ).body;
    expect([episode.status, episode.participants.length]).toEqual(["submitted", 3]);

    // Who sees and who ends it.
    expect((await client(t.url, dave.token).get(`/v2/coworlds/play/session/${id}`)).status).toBe(
      404,
    );
    expect(
      (await asCarol.get<HostedGameSession[]>("/v2/coworlds/play/sessions")).body.map(
        (s) => s.session_id,
      ),
    ).toContain(id);
    expect(
      (
        await client(t.url, dave.token).get<HostedGameSession[]>("/v2/coworlds/play/sessions")
      ).body.map((s) => s.session_id),
    ).not.toContain(id);
    expect((await asCarol.post(`/v2/coworlds/play/session/${id}/terminate`)).status).toBe(403);
    const ended = await host.post<HostedGameSession>(`/v2/coworlds/play/session/${id}/terminate`);
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body.status).toBe("cancelled");
    expect(
      (await host.get<EpisodeRequest>(`/v2/episode-requests/${started.episode_request_id ?? ""}`))
        .body.status,
    ).toBe("cancelled");
    expect((await host.post(`/v2/coworlds/play/session/${id}/terminate`)).status).toBe(409);
    const late = await asCarol.post<Problem>(joinPath);
    expect([late.status, (late.body.detail as { type: string }).type]).toEqual([
      409,
      "session_ended",
    ]);
    expect(
      (
        await client(t.url).post(
          `/v2/coworlds/play/session/ps_00000000-0000-4000-8000-000000000000/join`,
        )
      ).status,
    ).toBe(404);
    expect((await client(t.url).post(`/v2/coworlds/play/session/nope/join`)).status).toBe(422);
  });

  it("a seat whose game connection was lost fails the session with the reason, and cancels its episode", async () => {
    const host = client(t.url, tl.commissioner.token);
    const created = await host.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
      variant_id: "duel-small",
    });
    const id = created.body.session_id;
    const joined = await client(t.url).post<HostedGameJoinResponse>(
      `/v2/coworlds/play/session/${id}/join`,
    );
    await client(t.url).post(`/v2/coworlds/play/session/${id}/join`);
    const reason = "the game's connection to seat 0 was lost and not restored within 60 s";
    // What the relay does when a seat's game side is not back in time (relay.test.ts).
    await failSession(t.server.store.db, id, "game_connection_lost", reason);
    const read = (await host.get<HostedGameSession>(`/v2/coworlds/play/session/${id}`)).body;
    expect([read.status, read.error]).toEqual(["failed", reason]);
    const view = await client(t.url).get<{ session: { status: string; error_type: string } }>(
      new URL(joined.body.player_url.replace(/^ws/, "http")).pathname +
        new URL(joined.body.player_url).search,
    );
    expect(view.body.session).toMatchObject({
      status: "failed",
      error_type: "game_connection_lost",
    });
    const episode = await host.get<EpisodeRequest>(
      `/v2/episode-requests/${read.episode_request_id ?? ""}`,
    );
    expect(episode.body.status).toBe("cancelled");
    // Once ended, it stays as it ended.
    await failSession(t.server.store.db, id, "game_connection_lost", "again");
    expect((await host.get<HostedGameSession>(`/v2/coworlds/play/session/${id}`)).body.error).toBe(
      reason,
    );
  });

  it("serves a join page that takes a slot from a browser form, and a lobby page", async () => {
    const host = client(t.url, tl.commissioner.token);
    const created = (
      await host.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
        coworld_id: tl.coworldId,
        allow_spectators: true,
      })
    ).body;
    const page = await http<string>("GET", created.join_url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain('<form method="post">');
    expect(page.text).toContain("0 of 2 player slot(s) joined, 2 open");

    // Without a player client, the form's join lands on the lobby page.
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const noClient = await fetch(created.join_url, {
      method: "POST",
      headers: form,
      body: "",
      redirect: "manual",
    });
    expect(noClient.status).toBe(302);
    expect(noClient.headers.get("location")).toBe(created.lobby_url);
    const module = await uploadModule("player_client");
    const withClient = await fetch(created.join_url, {
      method: "POST",
      headers: form,
      body: "",
      redirect: "manual",
    });
    expect(withClient.status).toBe(302);
    const location = withClient.headers.get("location") ?? "";
    expect(location).toContain(`/v2/play-modules/${module.id}/files/index.html#ws=`);
    expect(decodeURIComponent(location.split("#ws=")[1] ?? "")).toMatch(
      new RegExp(`/v2/play-sessions/${created.session_id}/socket\\?token=join_`),
    );

    const full = await fetch(created.join_url, {
      method: "POST",
      headers: form,
      body: "",
      redirect: "manual",
    });
    // Full: the form (nobody in particular) is answered as for a session that does not exist.
    expect(full.status).toBe(404);
    const lobby = await http<string>("GET", created.lobby_url);
    expect(lobby.text).toContain("2 of 2 player slot(s) joined");
    expect(lobby.text).toContain("Player 1");
    expect(lobby.text).toContain("Episode <code>ereq_");
  });

  it("opens a replay in the coworld's viewer with a capability for that one replay, never a token", async () => {
    const api = client(t.url, tl.commissioner.token);
    // A hosted game's episode, its replay uploaded by a runner.
    const created = await api.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
      variant_id: "ffa-4",
      player_count: 2,
    });
    const joinPath = `/v2/coworlds/play/session/${created.body.session_id}/join`;
    for (let i = 0; i < 2; i += 1) expect((await client(t.url).post(joinPath)).status).toBe(200);
    const session = await api.get<HostedGameSession>(
      `/v2/coworlds/play/session/${created.body.session_id}`,
    );
    const episodeId = session.body.episode_request_id ?? "";
    const runner = await scriptedRunner(t, "replays");
    const job = (await runner.lease(5)).find((j) => j.episode_request_id === episodeId);
    if (!job) throw new Error("the hosted game's job was not leased");
    const replayBytes = '{"type":"header"}\n{"type":"frame","turn":0}\n';
    expect(await runner.upload(job, "replay", replayBytes)).toBe(200);

    const replayUri = `${t.url}/v2/episode-requests/${episodeId}/artifacts/replay`;
    const before = await api.post<Problem>("/v2/coworlds/replays/session", {
      coworld_id: tl.coworldId,
      replay_uri: replayUri,
    });
    expect([
      before.status,
      Array.isArray(before.body.detail) ? before.body.detail[0]?.loc : null,
    ]).toEqual([422, ["body", "coworld_id"]]);
    const viewer = await uploadModule("replay_viewer");

    const opened = await api.post<ReplaySessionResponse>("/v2/coworlds/replays/session", {
      coworld_id: tl.coworldId,
      replay_uri: replayUri,
    });
    expect(opened.status, opened.text).toBe(200);
    const [page, fragment = ""] = opened.body.viewer_url.split("#");
    expect(page).toBe(`${t.url}/v2/play-modules/${viewer.id}/files/index.html`);
    expect(fragment).not.toContain("token");
    const capability = new URLSearchParams(fragment).get("replay") ?? "";
    expect(capability).toMatch(new RegExp(`^${t.url}/v2/replays/[A-Za-z0-9_.-]+$`));
    // Anyone holding the address reads that replay, from any origin (the viewer is sandboxed).
    const read = await fetch(capability, { headers: { origin: "null" } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBe("*");
    expect(await read.text()).toBe(replayBytes);
    // A forged capability reads nothing.
    const forged = `${capability.slice(0, -6)}${capability.endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA"}`;
    expect((await fetch(forged)).status).toBe(404);

    // coworld's client sends the episode as a bare UUID (`episode_id: UUID`) beside its address.
    const bare = await api.post<ReplaySessionResponse>("/v2/coworlds/replays/session", {
      coworld_id: tl.coworldId,
      episode_id: episodeId.replace(/^ereq_/, ""),
      replay_uri: replayUri,
    });
    expect(bare.status, bare.text).toBe(200);

    // Any replay_uri and any episode are no longer minted: the episode must exist, be visible and
    // be of this coworld, and an address that names no episode is refused.
    const problem = async (body: Record<string, unknown>) => {
      const res = await api.post<Problem>("/v2/coworlds/replays/session", body);
      return [res.status, Array.isArray(res.body.detail) ? res.body.detail[0]?.loc : null];
    };
    expect(
      await problem({
        coworld_id: tl.coworldId,
        replay_uri: "https://example.org/replays/1.jsonl",
      }),
    ).toEqual([422, ["body", "replay_uri"]]);
    expect(
      await problem({
        coworld_id: tl.coworldId,
        episode_id: "ereq_00000000-0000-4000-8000-000000000000",
        replay_uri: "https://example.org/replays/1.jsonl",
      }),
    ).toEqual([404, null]);
    expect(
      await problem({
        coworld_id: tl.coworldId,
        episode_id: "ereq_00000000-0000-4000-8000-000000000000",
        replay_uri: replayUri,
      }),
    ).toEqual([422, ["body", "replay_uri"]]);
    expect(
      (
        await api.post("/v2/coworlds/replays/session", {
          coworld_id: tl.coworldId,
          replay_uri: "file:///etc/passwd",
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await client(t.url).post("/v2/coworlds/replays/session", {
          coworld_id: tl.coworldId,
          replay_uri: replayUri,
        })
      ).status,
    ).toBe(401);
  });

  it("opens a replay for the episode_id and replay_url that get_episode_request answered (coworld's create_replay_session)", async () => {
    // A host of their own: the commissioner's games of the tests before still hold its play cap.
    const api = client(t.url, (await t.newUser()).token);
    const created = await api.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
      variant_id: "ffa-4",
      player_count: 2,
    });
    const joinPath = `/v2/coworlds/play/session/${created.body.session_id}/join`;
    for (let i = 0; i < 2; i += 1) expect((await client(t.url).post(joinPath)).status).toBe(200);
    const session = await api.get<HostedGameSession>(
      `/v2/coworlds/play/session/${created.body.session_id}`,
    );
    const requestId = session.body.episode_request_id ?? "";
    const runner = await scriptedRunner(t, "replays-played");
    const job = (await runner.lease(5)).find((j) => j.episode_request_id === requestId);
    if (!job) throw new Error("the hosted game's job was not leased");
    expect(await runner.upload(job, "replay", '{"type":"header"}\n')).toBe(200);
    expect(await runner.complete(job, [1, 0])).toBe(200);
    // The coworld's replay viewer is the one the test before uploaded.

    // What get_episode_request answers: the played episode's id and its replay's address.
    const episode = await api.get<{ episode_id: string; replay_url: string }>(
      `/v2/episode-requests/${requestId}`,
    );
    expect(episode.body.episode_id).toMatch(/^[0-9a-f-]{36}$/);
    const replayUri = new URL(episode.body.replay_url, `${t.url}/`).toString();
    // coworld's client sends `{coworld_id, episode_id: str(UUID), replay_uri}`.
    const opened = await api.post<ReplaySessionResponse>("/v2/coworlds/replays/session", {
      coworld_id: tl.coworldId,
      episode_id: episode.body.episode_id,
      replay_uri: replayUri,
    });
    expect(opened.status, opened.text).toBe(200);

    // The replay must still be that episode's: another episode's played id is refused.
    const other = await api.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
      variant_id: "ffa-4",
      player_count: 2,
    });
    const otherJoin = `/v2/coworlds/play/session/${other.body.session_id}/join`;
    for (let i = 0; i < 2; i += 1) expect((await client(t.url).post(otherJoin)).status).toBe(200);
    const otherSession = await api.get<HostedGameSession>(
      `/v2/coworlds/play/session/${other.body.session_id}`,
    );
    const otherJob = (await runner.lease(5)).find(
      (j) => j.episode_request_id === otherSession.body.episode_request_id,
    );
    if (!otherJob) throw new Error("the second hosted game's job was not leased");
    expect(await runner.complete(otherJob, [0, 1])).toBe(200);
    const mismatched = await api.post<Problem>("/v2/coworlds/replays/session", {
      coworld_id: tl.coworldId,
      episode_id: otherJob.job_id,
      replay_uri: replayUri,
    });
    expect([
      mismatched.status,
      Array.isArray(mismatched.body.detail) ? mismatched.body.detail[0]?.loc : null,
    ]).toEqual([422, ["body", "replay_uri"]]);
  });

  // One person could open any number of sessions, each waiting in the queue with its rows.
  it("refuses a ninth open session to one person with a 429 that says why, and takes others' still", async () => {
    const eve = await t.newUser();
    const host = client(t.url, eve.token);
    const create = () =>
      host.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
        coworld_id: tl.coworldId,
        variant_id: null,
        allow_spectators: false,
      });
    for (let i = 0; i < OPEN_SESSIONS_PER_USER; i += 1) expect((await create()).status).toBe(200);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.text).toContain("play_sessions_open");
    expect(refused.text).toContain(`${OPEN_SESSIONS_PER_USER} play sessions open`);
    const other = await client(t.url, dave.token).post<HostedGameCreateResponse>(
      "/v2/coworlds/play/session",
      { coworld_id: tl.coworldId, variant_id: null, allow_spectators: false },
    );
    expect(other.status).toBe(200);
    // One ended: room for another.
    const first = await t.server.store.db
      .selectFrom("play_sessions")
      .select("id")
      .where("user_id", "=", eve.id)
      .executeTakeFirstOrThrow();
    await failSession(t.server.store.db, first.id, "player_left", "left");
    expect((await create()).status).toBe(200);
  });

  it("holds the cap when one person opens many sessions at once", async () => {
    const frank = await t.newUser();
    const host = client(t.url, frank.token);
    const answers = await Promise.all(
      Array.from({ length: 3 * OPEN_SESSIONS_PER_USER }, () =>
        host.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
          coworld_id: tl.coworldId,
          variant_id: null,
          allow_spectators: false,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(OPEN_SESSIONS_PER_USER);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual(
      Array.from({ length: 2 * OPEN_SESSIONS_PER_USER }, () => 429),
    );
  });
});
