// A 4-entrant single elimination end to end over real HTTP with a runner as a separate process
// playing the example coworld's baseline players (SQLite, or PostgreSQL when DATABASE_URL is
// set): two waves, each one experience request, three matches and a winner.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail, Tournament } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess | undefined;
const runnerOutput = () => runner?.output() ?? "";

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  runner = await startRunnerProcess(t, "cup-e2e", 2);
}, 30_000);

afterAll(async () => {
  await runner?.stop();
  await t?.close();
}, 30_000);

describe("a tournament on the runners", () => {
  it("plays a 4-entrant single elimination to completed: two waves, three matches, a winner", async () => {
    const tl = await createTestLeague(t);
    const entrants = [
      await tl.addPlayer("Greedy", { baseline: "greedy" }),
      await tl.addPlayer("Wanderer", { baseline: "wanderer" }),
      await tl.addPlayer("Random", { baseline: "random" }),
      await tl.addPlayer("Greedy Two", { baseline: "greedy" }),
    ];
    const api = client(t.url, tl.commissioner.token);
    const created = await api.post<Tournament>(`/v2/leagues/${tl.league.id}/tournaments`, {
      name: "Runner Cup",
      format: "single_elimination",
      policy_version_ids: entrants.map((e) => e.policyVersionId),
      episodes_per_match: 1,
      variant_id: "duel-small",
      game_config_overrides: { turn_timeout_ms: 2_000 },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect((await api.post<Tournament>(`/v2/tournaments/${id}:lock`)).body.status).toBe("locked");
    const started = await api.post<Tournament>(`/v2/tournaments/${id}:start`);
    expect(started.body.status, started.body.error ?? "").toBe("running");

    // No `:advance` by hand: the end of each wave's request moves the tournament on.
    const done = await eventually(
      `the tournament to end (runner output: ${runnerOutput().slice(-2000)})`,
      async () => {
        const now = (await api.get<Tournament>(`/v2/tournaments/${id}`)).body;
        return now.status === "running" ? null : now;
      },
      240_000,
    );
    expect(done.status, `${done.error ?? ""} ${runnerOutput().slice(-2000)}`).toBe("completed");
    expect(done.matches).toHaveLength(3);
    expect(
      done.matches.map((m) => m.status),
      runnerOutput().slice(-2000),
    ).toEqual(["completed", "completed", "completed"]);
    expect(done.waves).toHaveLength(2);
    const final = done.matches.find((m) => m.round === 2);
    expect(final?.winner_seed).not.toBeNull();
    expect(done.winner?.seed).toBe(final?.winner_seed);
    expect(entrants.map((e) => e.policyVersionId)).toContain(done.winner?.policy_version_id);
    for (const wave of done.waves) {
      const request = (await api.get<ExperienceRequestDetail>(`/v2/experience-requests/${wave}`))
        .body;
      expect(request).toMatchObject({ status: "completed", failed_count: 0 });
      expect(request.notes).toContain(id);
    }
    const first = (
      await api.get<ExperienceRequestDetail>(`/v2/experience-requests/${done.waves[0] ?? ""}`)
    ).body;
    expect(first.episode_count).toBe(2);
    // Completed matches carry both mean scores, from episodes the runner played.
    for (const m of done.matches) {
      expect(Number.isFinite(m.score_a) && Number.isFinite(m.score_b)).toBe(true);
      expect(m.episodes_completed).toBe(1);
    }
  }, 300_000);
});
