// Stateful coworlds end to end with a runner process: GridRush's stateful mode keeps each
// player's record (games played, coins won) across episodes and policy versions as its `head`;
// a snapshot starts every episode from the same bytes and keeps nothing; a rival reads, writes
// and starts from none of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail, PlayerState, StateSnapshot } from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess;
let tl: TestLeague;
let ada: TestPlayer;
let bo: TestPlayer;
let coworld: string;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  runner = await startRunnerProcess(t, "state-e2e", 1);
  tl = await createTestLeague(t);
  ada = await tl.addPlayer("Ada", { baseline: "greedy" });
  bo = await tl.addPlayer("Bo", { baseline: "random" });
  const api = client(t.url, tl.commissioner.token);
  coworld = (await api.get<{ name: string }>(`/v2/coworlds/${tl.coworldId}`)).body.name;
  const put = await http("PUT", `${t.url}/v2/coworlds/secrets/${coworld}/stateful`, {
    token: tl.commissioner.token,
    body: JSON.stringify({
      format: "coworld.game_config_overlay.v1",
      game_config_overrides: { turns: 6 },
    }),
    headers: { "content-type": "application/octet-stream" },
  });
  expect(put.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await runner?.stop();
  await t?.close();
}, 30_000);

async function play(
  token: string,
  versions: string[],
  state: Record<string, unknown>,
  episodes = 1,
): Promise<ExperienceRequestDetail> {
  const api = client(t.url, token);
  const created = await api.post<ExperienceRequestDetail>("/v2/experience-requests", {
    coworld_id: tl.coworldId,
    variant_id: "duel-small",
    roster: versions.map((ref) => ({ player: { policy_ref: ref } })),
    num_episodes: episodes,
    game_config_overrides: { turn_timeout_ms: 2_000 },
    game_config_overlay_secret: "stateful",
    state,
  });
  expect(created.status, created.text).toBe(201);
  const done = await eventually(
    `the request to end (runner output: ${runner.output().slice(-2000)})`,
    async () => {
      const row = (
        await api.get<ExperienceRequestDetail>(`/v2/experience-requests/${created.body.id}`)
      ).body;
      return ["completed", "failed", "cancelled"].includes(row.status) ? row : null;
    },
    120_000,
  );
  expect(done.status, runner.output().slice(-2000)).toBe("completed");
  return done;
}

async function record(playerId: string, token = tl.commissioner.token) {
  const res = await client(t.url, token).get<PlayerState>(
    `/v2/player-states/${coworld}/${playerId}`,
  );
  return {
    status: res.status,
    text: res.text,
    stats:
      res.status === 200
        ? (JSON.parse(Buffer.from(res.body.content_base64, "base64").toString()) as {
            games_played: number;
            coins_total: number;
          })
        : null,
  };
}

async function gameLog(episodeId: string): Promise<string> {
  const res = await client(t.url, tl.commissioner.token).get(
    `/v2/episode-requests/${episodeId}/artifacts/logs`,
  );
  return res.text;
}

describe("player state (stateful GridRush)", () => {
  it("grows the head over three episodes, across a new policy version", async () => {
    expect((await record(ada.id)).status).toBe(404);
    const head = { type: "head" };
    await play(tl.commissioner.token, [ada.policyVersionId, bo.policyVersionId], head);
    expect((await record(ada.id)).stats?.games_played).toBe(1);
    await play(tl.commissioner.token, [ada.policyVersionId, bo.policyVersionId], head);
    expect((await record(ada.id)).stats?.games_played).toBe(2);
    const v2 = await tl.addVersion(ada, "Ada-v2");
    const third = await play(tl.commissioner.token, [v2, bo.policyVersionId], head);
    const ada3 = await record(ada.id);
    expect(ada3.stats?.games_played).toBe(3);
    expect((await record(bo.id)).stats?.games_played).toBe(3);
    expect(await gameLog(third.episodes[0]?.id ?? "")).toContain(
      "slot 0 starts with 2 games played",
    );
    // The state is kept sealed, not as a file of the episode.
    const bundle = await client(t.url, tl.commissioner.token).get(
      `/v2/episode-requests/${third.episodes[0]?.id ?? ""}/artifacts/state-0`,
    );
    expect(bundle.status).not.toBe(200);
  }, 300_000);

  it("starts every episode of a snapshot from the same bytes and keeps the head as it was", async () => {
    const before = await record(ada.id);
    const snap = await client(t.url, tl.commissioner.token).post<StateSnapshot>(
      `/v2/player-states/${coworld}/snapshots`,
      { player_ids: [ada.id, bo.id] },
    );
    expect(snap.status, snap.text).toBe(201);
    const done = await play(
      tl.commissioner.token,
      [ada.policyVersionId, bo.policyVersionId],
      { type: "snapshot", snapshot_id: snap.body.id },
      2,
    );
    const starts = await Promise.all(done.episodes.map((e) => gameLog(e.id)));
    const n = before.stats?.games_played ?? -1;
    for (const log of starts) expect(log).toContain(`slot 0 starts with ${n} games played`);
    expect((await record(ada.id)).stats).toEqual(before.stats);
  }, 300_000);

  it("gives a rival neither read, nor write, nor a start from another's state", async () => {
    const rival = await t.newUser();
    const theirs = await record(ada.id, rival.token);
    expect(theirs.status).toBe(404);
    expect(theirs.text).not.toContain("games_played");
    const snap = await client(t.url, rival.token).post(`/v2/player-states/${coworld}/snapshots`, {
      player_ids: [ada.id],
    });
    expect(snap.status).toBe(422);
    const mine = await client(t.url, tl.commissioner.token).post<StateSnapshot>(
      `/v2/player-states/${coworld}/snapshots`,
      { player_ids: [ada.id] },
    );
    const rivalBot = await tl.addPlayer("Rival", { owner: rival, baseline: "greedy" });
    const start = await client(t.url, rival.token).post("/v2/experience-requests", {
      coworld_id: tl.coworldId,
      roster: [
        { player: { policy_ref: rivalBot.policyVersionId } },
        { player: { policy_ref: rivalBot.policyVersionId } },
      ],
      num_episodes: 1,
      game_config_overlay_secret: "stateful",
      state: { type: "snapshot", snapshot_id: mine.body.id },
    });
    expect(start.status).toBe(422);
    expect(start.text).toContain("snapshot_id");

    // Seating Ada (opened to everyone) in a rival's stateful request: Ada's seat plays stateless.
    const opened = await client(t.url, tl.commissioner.token).patch(
      `/v2/policy-versions/${ada.policyVersionId}`,
      { open_to_scrimmage: true },
    );
    expect(opened.status, opened.text).toBe(200);
    const before = await record(ada.id);
    const done = await play(rival.token, [ada.policyVersionId, rivalBot.policyVersionId], {
      type: "head",
    });
    expect((await record(ada.id)).stats).toEqual(before.stats);
    expect((await record(rivalBot.id, rival.token)).stats?.games_played).toBe(1);
    expect(await gameLog(done.episodes[0]?.id ?? "")).not.toContain("slot 0 starts with");
  }, 300_000);

  it("refuses state without the overlay secret or with a drawn seat", async () => {
    const api = client(t.url, tl.commissioner.token);
    const noOverlay = await api.post("/v2/experience-requests", {
      coworld_id: tl.coworldId,
      roster: [
        { player: { policy_ref: ada.policyVersionId } },
        { player: { policy_ref: bo.policyVersionId } },
      ],
      num_episodes: 1,
      state: { type: "head" },
    });
    expect(noOverlay.status).toBe(422);
    expect(noOverlay.text).toContain("state");
  });
});
