// An experience request end to end over real HTTP with a runner as a separate process playing
// the example coworld's baseline players (SQLite, or PostgreSQL when DATABASE_URL is set).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  runner = await startRunnerProcess(t, "xreq-e2e", 2);
}, 30_000);

afterAll(async () => {
  await runner?.stop();
  await t?.close();
}, 30_000);

describe("an experience request with a runner process", () => {
  it("plays two demo policies to completed, with a score on every episode and counts that add up", async () => {
    const tl = await createTestLeague(t);
    const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
    const random = await tl.addPlayer("Random", { baseline: "random" });
    const api = client(t.url, tl.commissioner.token);
    const created = await api.post<ExperienceRequestDetail>("/v2/experience-requests", {
      coworld_id: tl.coworldId,
      variant_id: "duel-small",
      roster: [
        { player: { policy_ref: greedy.policyVersionId } },
        { player: { policy_ref: random.policyVersionId } },
      ],
      num_episodes: 2,
      game_config_overrides: { turn_timeout_ms: 2_000 },
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
    expect(done).toMatchObject({
      episode_count: 2,
      completed_count: 2,
      failed_count: 0,
      running_count: 0,
      submitted_count: 0,
      pending_count: 0,
      cancelled_count: 0,
    });
    for (const episode of done.episodes) {
      expect(episode.status).toBe("completed");
      expect(episode.scores.map((s) => s.position)).toEqual([0, 1]);
      expect(episode.scores.every((s) => Number.isFinite(s.score))).toBe(true);
    }
    expect((await api.post(`/v2/experience-requests/${done.id}/cancel`)).status).toBe(409);
  }, 180_000);
});
