// Runners that die or stall mid-episode (issue 18): the job's lease runs out, another runner
// leases it again and plays it, and the episode's result is recorded exactly once — a stalled
// runner that wakes up afterwards and reports its own outcome changes nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually, type TestLeague } from "../../testing/test-league.ts";

// Read by the work queue per call: leases run out two seconds after the last heartbeat.
process.env.GAUNTLET_LEASE_SECONDS = "2";

let t: TestServer;
let tl: TestLeague;
let roster: { player: { policy_ref: string } }[];
const runners: RunnerProcess[] = [];

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  const a = await tl.addPlayer("Greedy", { baseline: "greedy" });
  const b = await tl.addPlayer("Wanderer", { baseline: "wanderer" });
  roster = [a, b].map((p) => ({ player: { policy_ref: p.policyVersionId } }));
}, 60_000);

// Each test brings its own runners: none of them may lease the next test's episode.
afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
}, 60_000);

afterAll(async () => {
  await t?.close();
  delete process.env.GAUNTLET_LEASE_SECONDS;
}, 60_000);

async function runner(id: string): Promise<RunnerProcess> {
  const r = await startRunnerProcess(t, id);
  runners.push(r);
  return r;
}

/** One long episode (the most turns the game allows), so that a runner is caught playing it. */
async function evaluation(): Promise<{ id: string; episodeId: string }> {
  const res = await client(t.url, tl.commissioner.token).post<ExperienceRequestDetail>(
    "/v2/experience-requests",
    {
      target: { league_id: tl.league.id },
      roster,
      num_episodes: 1,
      game_config_overrides: { turns: 1000 },
    },
  );
  expect(res.status, res.text).toBe(201);
  const episode = res.body.episodes[0];
  if (!episode) throw new Error("the request has no episode");
  return { id: res.body.id, episodeId: episode.id };
}

/** The job of an episode once `runnerId` holds its lease. */
async function leasedBy(episodeId: string, runnerId: string) {
  return eventually(
    `${runnerId} to lease the episode's job`,
    async () => {
      const job = await t.server.store.db
        .selectFrom("jobs")
        .selectAll()
        .where("episode_request_id", "=", episodeId)
        .executeTakeFirst();
      return job && job.status === "leased" && job.lease_owner?.endsWith(`/${runnerId}`)
        ? job
        : null;
    },
    60_000,
  );
}

async function completed(requestId: string): Promise<ExperienceRequestDetail> {
  return eventually(
    "the evaluation to end",
    async () => {
      const now = (
        await client(t.url, tl.commissioner.token).get<ExperienceRequestDetail>(
          `/v2/experience-requests/${requestId}`,
        )
      ).body;
      return ["completed", "failed", "cancelled"].includes(now.status) ? now : null;
    },
    120_000,
  );
}

/** What is stored of one episode: its row, its job and its artifacts. */
async function stored(episodeId: string) {
  const db = t.server.store.db;
  return {
    episode: await db
      .selectFrom("episode_requests")
      .select(["status", "scores", "results", "error", "updated_at"])
      .where("id", "=", episodeId)
      .executeTakeFirstOrThrow(),
    job: await db
      .selectFrom("jobs")
      .select(["status", "attempts", "updated_at"])
      .where("episode_request_id", "=", episodeId)
      .executeTakeFirstOrThrow(),
    artifacts: await db
      .selectFrom("artifacts")
      .select(["name", "sha256"])
      .where("episode_request_id", "=", episodeId)
      .orderBy("name")
      .execute(),
  };
}

describe("a runner killed mid-episode", () => {
  it("loses the lease; another runner plays the episode, recorded once", async () => {
    const request = await evaluation();
    const doomed = await runner("fault-killed");
    await leasedBy(request.episodeId, "fault-killed");
    doomed.signal("SIGKILL");
    await runner("fault-rescuer");
    await leasedBy(request.episodeId, "fault-rescuer");
    const done = await completed(request.id);
    expect(done).toMatchObject({
      status: "completed",
      episode_count: 1,
      completed_count: 1,
      failed_count: 0,
    });
    const { episode, job, artifacts } = await stored(request.episodeId);
    expect(episode.status).toBe("completed");
    expect(JSON.parse(episode.scores)).toHaveLength(2);
    expect(job).toMatchObject({ status: "completed", attempts: 2 });
    expect(new Set(artifacts.map((a) => a.name)).size).toBe(artifacts.length);
  }, 180_000);
});

describe("a runner whose network stalls mid-episode", () => {
  it("is replaced when its lease runs out, and its late report changes nothing", async () => {
    const request = await evaluation();
    const stalled = await runner("fault-stalled");
    await leasedBy(request.episodeId, "fault-stalled");
    // Stopped, the runner neither heartbeats nor reports: to the server it has gone silent.
    stalled.signal("SIGSTOP");
    await runner("fault-replacement");
    await leasedBy(request.episodeId, "fault-replacement");
    const done = await completed(request.id);
    expect(done).toMatchObject({ status: "completed", completed_count: 1, failed_count: 0 });
    const before = await stored(request.episodeId);
    expect(before.job).toMatchObject({ status: "completed", attempts: 2 });

    stalled.signal("SIGCONT");
    await eventually(
      `the stalled runner to learn that its job ended elsewhere (its output: ${stalled.output().slice(-1500)})`,
      async () =>
        /lease lost|no longer ours|ended elsewhere|could not be reported/.test(stalled.output()),
      60_000,
    );
    expect(await stored(request.episodeId)).toEqual(before);
  }, 180_000);
});
