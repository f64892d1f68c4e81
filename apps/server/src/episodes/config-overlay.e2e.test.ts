// A private episode input played by a real runner: the overlay's value reaches the game (GridRush
// reports the number of turns it played) while the episode's stored config keeps the public one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail } from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  runner = await startRunnerProcess(t, "overlay-e2e", 1);
}, 30_000);

afterAll(async () => {
  await runner?.stop();
  await t?.close();
}, 30_000);

describe("a private config overlay on a runner", () => {
  it("is merged into the game's config only", async () => {
    const tl = await createTestLeague(t);
    const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
    const random = await tl.addPlayer("Random", { baseline: "random" });
    const api = client(t.url, tl.commissioner.token);
    const name = (await api.get<{ name: string }>(`/v2/coworlds/${tl.coworldId}`)).body.name;
    const put = await http("PUT", `${t.url}/v2/coworlds/secrets/${name}/short_game`, {
      token: tl.commissioner.token,
      body: JSON.stringify({
        format: "coworld.game_config_overlay.v1",
        game_config_overrides: { turns: 7 },
      }),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(put.status).toBe(200);
    const created = await api.post<ExperienceRequestDetail>("/v2/experience-requests", {
      coworld_id: tl.coworldId,
      variant_id: "duel-small",
      roster: [
        { player: { policy_ref: greedy.policyVersionId } },
        { player: { policy_ref: random.policyVersionId } },
      ],
      num_episodes: 1,
      game_config_overrides: { turns: 25, turn_timeout_ms: 2_000 },
      game_config_overlay_secret: "short_game",
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
    const id = done.episodes[0]?.id ?? "";
    const artifact = async (name: string) => {
      const res = await api.get(`/v2/episode-requests/${id}/artifacts/${name}`);
      expect(res.status, res.text).toBe(200);
      return JSON.parse(res.text) as { turns: number };
    };
    expect((await artifact("results")).turns).toBe(7);
    expect((await artifact("game-config")).turns).toBe(25);
  }, 180_000);
});
