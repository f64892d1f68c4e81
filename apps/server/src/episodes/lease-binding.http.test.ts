// Reports on a job are bound to its lease, over real HTTP: another runner's machine token, a
// request without the lease's secret, or a lease that expired into a new one is refused and
// changes nothing; the lease's holder reports as before, and completing twice is a no-op.
// (A policy that found the runner's token and its job id must not forge results.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail, LeasedJob } from "@gauntlet/core";

import { client, type HttpResult } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  leaseHeaders,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
} from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let ids: { ada: string; bob: string };

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  ids = {
    ada: (await tl.addPlayer("Ada")).policyVersionId,
    bob: (await tl.addPlayer("Bob")).policyVersionId,
  };
}, 120_000);

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  delete process.env.GAUNTLET_LEASE_SECONDS;
});

/** Queues one episode and leases it to `runner`. */
async function leasedBy(runner: ScriptedRunner): Promise<LeasedJob> {
  const xr = await client(t.url, tl.commissioner.token).post<ExperienceRequestDetail>(
    "/v2/experience-requests",
    {
      coworld_id: tl.coworldId,
      roster: [{ player: { policy_ref: ids.ada } }, { player: { policy_ref: ids.bob } }],
      num_episodes: 1,
    },
  );
  expect(xr.status, xr.text).toBe(201);
  const [job] = await runner.lease(1);
  if (!job) throw new Error("nothing leased");
  return job;
}

interface Seen {
  status: string;
  scores: unknown;
  error: string | null;
  replay: number;
}

/** What a user sees of the job's episode: its state, scores, error and whether it has a replay. */
async function seen(job: LeasedJob): Promise<Seen> {
  const path = `/v2/episode-requests/${job.episode_request_id}`;
  const ep = await client(t.url, tl.commissioner.token).get<{
    status: string;
    scores: unknown;
    error: string | null;
  }>(path);
  const replay = await client(t.url, tl.commissioner.token).get(`${path}/artifacts/replay`);
  return {
    status: ep.body.status,
    scores: ep.body.scores,
    error: ep.body.error,
    replay: replay.status,
  };
}

/** Every report on `job` with `token`, and `headers` for its lease; the answers' statuses and types. */
async function everyReport(
  job: LeasedJob,
  token: string,
  headers: Record<string, string>,
): Promise<[number, string][]> {
  const api = client(t.url, token);
  const typeOf = (res: HttpResult) =>
    (res.body as { detail?: { type?: string } } | undefined)?.detail?.type ?? "";
  const answers: HttpResult[] = [
    await api.post(`/v2/runner/jobs/${job.job_id}/heartbeat`, { runner_id: "x" }, { headers }),
    await api.post(
      `/v2/runner/jobs/${job.job_id}/complete`,
      { runner_id: "x", results: { scores: [0, 99], winner_slot: 1, turns: 1, seed: 1 } },
      { headers },
    ),
    await api.post(
      `/v2/runner/jobs/${job.job_id}/fail`,
      { runner_id: "x", error_type: "game_crashed", error: "forged", failed_policy_index: 0 },
      { headers },
    ),
  ];
  const upload = await fetch(`${t.url}/v2/runner/jobs/${job.job_id}/artifacts/replay`, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/octet-stream",
      ...headers,
    },
    body: "FORGED",
  });
  const uploadBody = (await upload.json()) as { detail?: { type?: string } };
  return [
    ...answers.map((res): [number, string] => [res.status, typeOf(res)]),
    [upload.status, uploadBody.detail?.type ?? ""],
  ];
}

describe("a lease-bound work queue", () => {
  it("refuses another runner's machine token on every report, even with the lease's secret, and changes nothing", async () => {
    const holder = await scriptedRunner(t);
    const rival = await scriptedRunner(t);
    const job = await leasedBy(holder);
    expect(job.lease_token.length).toBeGreaterThanOrEqual(40);
    const before = await seen(job);
    const refused = new Array(4).fill([403, "lease_not_held"]);
    expect(await everyReport(job, rival.token, leaseHeaders(job))).toEqual(refused);
    expect(await everyReport(job, rival.token, {})).toEqual(
      new Array(4).fill([403, "lease_required"]),
    );
    expect(await seen(job)).toEqual(before);
    // The holder still reports: its upload and completion count.
    expect(await holder.upload(job, "replay", "REAL")).toBe(200);
    expect(await holder.complete(job, [2, 1])).toBe(200);
    const after = await seen(job);
    expect(after).toMatchObject({ status: "completed", replay: 200 });
    expect(after.scores).not.toEqual(before.scores);
  });

  it("refuses the holding machine without the lease's secret, or with a wrong one", async () => {
    const holder = await scriptedRunner(t);
    const job = await leasedBy(holder);
    const before = await seen(job);
    expect(await everyReport(job, holder.token, {})).toEqual(
      new Array(4).fill([403, "lease_required"]),
    );
    expect(await everyReport(job, holder.token, { "X-Lease-Token": "guessed" })).toEqual(
      new Array(4).fill([409, "lease_stale"]),
    );
    expect(await seen(job)).toEqual(before);
    expect(await holder.complete(job, [1, 2])).toBe(200);
  });

  it("refuses a stale lease after the job is leased again, to the same machine or another", async () => {
    process.env.GAUNTLET_LEASE_SECONDS = "1";
    const holder = await scriptedRunner(t);
    const first = await leasedBy(holder);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    // The lease expired: the next lease (which expires old ones first) takes the job again.
    const [second] = await holder.lease(1);
    expect(second?.job_id).toBe(first.job_id);
    if (!second) throw new Error("not leased again");
    expect(second.lease_token).not.toBe(first.lease_token);
    delete process.env.GAUNTLET_LEASE_SECONDS;
    const before = await seen(first);
    expect(await everyReport(first, holder.token, leaseHeaders(first))).toEqual(
      new Array(4).fill([409, "lease_stale"]),
    );
    expect(await seen(first)).toEqual(before);

    // Given back and leased by another runner: the first runner is refused as not holding it.
    const returned = await holder.fail(second, { error_type: "returned", error: "shutting down" });
    expect(returned.status, returned.text).toBe(200);
    const rival = await scriptedRunner(t);
    const [third] = await rival.lease(1);
    expect(third?.job_id).toBe(first.job_id);
    if (!third) throw new Error("not leased by the rival");
    expect(await everyReport(second, holder.token, leaseHeaders(second))).toEqual(
      new Array(4).fill([403, "lease_not_held"]),
    );
    expect(await rival.complete(third, [3, 4])).toBe(200);
    expect((await seen(first)).status).toBe("completed");
  });

  it("lets a runner download only the bundles of jobs it holds a lease on", async () => {
    const holder = await scriptedRunner(t);
    const rival = await scriptedRunner(t);
    const job = await leasedBy(holder);
    const download = async (runner: ScriptedRunner, sha: string) => {
      const res = await fetch(`${t.url}/v2/runner/blobs/${sha}`, {
        headers: { authorization: `Bearer ${runner.token}` },
      });
      await res.arrayBuffer();
      return res.status;
    };
    const shas = [
      job.coworld.bundle_sha256 ?? "",
      ...job.players.map((p) => p.bundle_sha256 ?? ""),
    ].filter((sha) => sha !== "");
    expect(shas.length).toBeGreaterThan(0);
    for (const sha of shas) {
      expect(await download(holder, sha)).toBe(200);
      expect(await download(rival, sha)).toBe(404);
    }
    expect(await holder.complete(job, [1, 1])).toBe(200);
    // Once the job ends, its lease no longer opens the bundles.
    for (const sha of shas) expect(await download(holder, sha)).toBe(404);
  });

  it("answers a completion delivered twice with the right lease as a no-op", async () => {
    const holder = await scriptedRunner(t);
    const job = await leasedBy(holder);
    expect(await holder.complete(job, [5, 1])).toBe(200);
    const done = await seen(job);
    expect(await holder.complete(job, [0, 9])).toBe(200);
    expect(await seen(job)).toEqual(done);
    // After the end, a rival's report is still refused, not answered as a no-op.
    const rival = await scriptedRunner(t);
    expect((await everyReport(job, rival.token, leaseHeaders(job)))[1]).toEqual([
      403,
      "lease_not_held",
    ]);
  });

  it("keeps server paths out of a failure report that quotes them", async () => {
    const holder = await scriptedRunner(t);
    const job = await leasedBy(holder);
    const res = await holder.fail(job, {
      error_type: "game_crashed",
      error: "ENOENT: no such file or directory, open '/srv/gauntlet/data/runner/work/j1/game.py'",
      failed_policy_index: null,
    });
    expect(res.status, res.text).toBe(200);
    const ep = await client(t.url, tl.commissioner.token).get<{ error: string }>(
      `/v2/episode-requests/${job.episode_request_id}`,
    );
    expect(ep.body.error).toBe("ENOENT: no such file or directory, open '…/game.py'");
  });
});
