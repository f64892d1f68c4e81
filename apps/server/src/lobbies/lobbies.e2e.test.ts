// A lobby end to end over real HTTP: two people seat GridRush baselines, the creator starts it,
// a runner process plays the episode, and the lobby ends with that episode's scores.
import type { EpisodeRequest, Lobby } from "@gauntlet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestLeague, eventually } from "../../testing/test-league.ts";
import { client } from "../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

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
    expect((await host.post(`${path}/seats/0/claim`, { policy_version_id: greedy.policyVersionId })).status).toBe(200);
    expect((await client(t.url, guest.token).post(`${path}/seats/1/claim`, { policy_version_id: random.policyVersionId })).status).toBe(200);
    const started = await host.post<Lobby>(`${path}/start`);
    expect(started.status, started.text).toBe(200);

    const ended = await eventually(
      `the lobby to end (runner output: ${runner.output().slice(-2000)})`,
      async () => {
        const lobby = (await host.get<Lobby>(path)).body;
        return lobby.status === "running" ? null : lobby;
      },
      120_000,
    );
    expect(ended.status, runner.output().slice(-2000)).toBe("completed");
    const episode = (await host.get<EpisodeRequest>(`/v2/episode-requests/${ended.episode_request_id ?? ""}`)).body;
    expect(episode.status).toBe("completed");
    expect(episode.scores.map((s) => s.position)).toEqual([0, 1]);
    expect(episode.scores.every((s) => Number.isFinite(s.score))).toBe(true);
  }, 180_000);
});
