// A lobby end to end over real HTTP: two people seat GridRush baselines, the creator starts it,
// a runner process plays the episode, and the lobby ends with that episode's scores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, HostedGameJoinResponse, Lobby } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  runner = await startRunnerProcess(t, "lobby-e2e");
}, 30_000);

afterAll(async () => {
  await runner?.stop();
  await t?.close();
}, 30_000);

/** The lobby once it is no longer running. */
function lobbyEnded(host: ReturnType<typeof client>, path: string): Promise<Lobby> {
  return eventually(
    `the lobby to end (runner output: ${runner.output().slice(-2000)})`,
    async () => {
      const lobby = (await host.get<Lobby>(path)).body;
      return lobby.status === "running" ? null : lobby;
    },
    120_000,
  );
}

describe("a lobby with a runner process", () => {
  it("plays its episode on the runner and ends with it", async () => {
    const tl = await createTestLeague(t);
    const guest = await t.newUser();
    const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
    const random = await tl.addPlayer("Random", { owner: guest, baseline: "random" });
    const host = client(t.url, tl.commissioner.token);
    const created = await host.post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, {
      variant_id: "duel-small",
      game_config_overrides: { turn_timeout_ms: 2_000 },
      num_players: 3,
      seats: [{ kind: "human_open" }, { kind: "human", user_id: guest.id }, { kind: "closed" }],
    });
    expect(created.status, created.text).toBe(201);
    const path = `/v2/lobbies/${created.body.id}`;
    expect(
      (await host.post(`${path}/seats/0/claim`, { policy_version_id: greedy.policyVersionId }))
        .status,
    ).toBe(200);
    expect(
      (
        await client(t.url, guest.token).post(`${path}/seats/1/claim`, {
          policy_version_id: random.policyVersionId,
        })
      ).status,
    ).toBe(200);
    const started = await host.post<Lobby>(`${path}/start`);
    expect(started.status, started.text).toBe(200);

    const ended = await lobbyEnded(host, path);
    expect(ended.status, runner.output().slice(-2000)).toBe("completed");
    const episode = (
      await host.get<EpisodeRequest>(`/v2/episode-requests/${ended.episode_request_id ?? ""}`)
    ).body;
    expect(episode.status).toBe("completed");
    expect(episode.scores.map((s) => s.position)).toEqual([0, 1]);
    expect(episode.scores.every((s) => Number.isFinite(s.score))).toBe(true);
  }, 180_000);
});

/** Plays a GridRush slot over its player protocol: east every turn; resolves with the end message. */
function playEastward(url: string): Promise<{ type: string; scores: number[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.addEventListener("message", (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as {
        type: string;
        turn?: number;
        scores?: number[];
      };
      if (message.type === "turn")
        socket.send(JSON.stringify({ type: "move", turn: message.turn, move: "E" }));
      if (message.type === "end") resolve({ type: "end", scores: message.scores ?? [] });
    });
    socket.addEventListener("close", (event: CloseEvent) =>
      reject(new Error(`the slot's socket closed before the end (${event.code} ${event.reason})`)),
    );
  });
}

describe("a lobby launched for live play", () => {
  it("seats its person in a live game beside a league player's champion, and ends with the game", async () => {
    const tl = await createTestLeague(t);
    const guest = await t.newUser();
    const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
    await tl.submit(greedy);
    const host = client(t.url, tl.commissioner.token);
    const created = await host.post<Lobby>(`/v2/leagues/${tl.league.id}/lobbies`, {
      variant_id: "duel-small",
      game_config_overrides: { turns: 4, turn_timeout_ms: 5_000, connect_timeout_ms: 60_000 },
      num_players: 2,
      seats: [
        { kind: "human", user_id: guest.id },
        { kind: "league_player", player_id: greedy.id },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const path = `/v2/lobbies/${created.body.id}`;
    const launched = await host.post<Lobby>(`${path}/launch`);
    expect(launched.status, launched.text).toBe(200);
    expect(launched.body).toMatchObject({ status: "running", experience_request_id: null });
    const sessionId = launched.body.play_session_id ?? "";
    expect(sessionId).toMatch(/^ps_/);

    // The host holds no slot: the live slot is the guest's.
    expect((await host.post(`/v2/coworlds/play/session/${sessionId}/join`)).status).toBe(409);
    const joined = await client(t.url, guest.token).post<HostedGameJoinResponse>(
      `/v2/coworlds/play/session/${sessionId}/join`,
    );
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toMatchObject({ slot: 0, player: { slot: 0, user_id: guest.id } });
    const end = await playEastward(joined.body.player_url);
    expect(end.scores).toHaveLength(2);

    const ended = await lobbyEnded(host, path);
    expect(ended.status, runner.output().slice(-2000)).toBe("completed");
    const episode = (
      await host.get<EpisodeRequest>(`/v2/episode-requests/${ended.episode_request_id ?? ""}`)
    ).body;
    expect(episode.participants.map((p) => [p.position, p.player_id])).toEqual([
      [0, null],
      [1, greedy.id],
    ]);
    expect(episode.scores.map((s) => s.score)).toEqual(end.scores);
  }, 180_000);
});
