// The server side of the work queue over real HTTP, with the real example coworld package.
// The test plays the runner (no game runs here; apps/runner has the end-to-end test).
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { packDirectory } from "../blobs/tarball.ts";

const GRIDRUSH = join(import.meta.dirname, "../../../../examples/coworlds/gridrush");
const manifest = JSON.parse(readFileSync(join(GRIDRUSH, "coworld_manifest.json"), "utf8")) as {
  game: { version: string; name: string };
};

type Job = {
  job_id: string;
  lease_token: string;
  episode_request_id: string;
  players: { position: number; runnable: { run: string[] | null } }[];
  secrets: Record<string, string>;
  coworld: { bundle_sha256: string | null };
  game_config: Record<string, unknown>;
};

let t: TestServer;
let runner: ReturnType<typeof client>;
let bundle: Buffer;

beforeAll(async () => {
  t = await startTestServer();
  runner = client(t.url, await t.machineToken("runner-test"));
  bundle = await packDirectory(GRIDRUSH);
});
afterAll(async () => {
  await t.close();
});

async function uploadVersion(token: string, version: string, extra: Record<string, unknown> = {}) {
  const bytes = await fetch(`${t.url}/v2/coworlds/bundles`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: bundle,
  });
  const uploaded = (await bytes.json()) as { upload_id: string };
  return client(t.url, token).post<{
    id: string;
    canonical: boolean;
    version: string;
    detail?: unknown;
  }>("/v2/coworlds/upload", {
    manifest: { ...manifest, game: { ...manifest.game, version }, ...extra },
    bundle_upload_id: uploaded.upload_id,
  });
}

/** The lease header of a report on `job`. */
const held = (job: Job) => ({ headers: { "X-Lease-Token": job.lease_token } });

async function leaseOne(): Promise<Job> {
  const res = await runner.post<{ jobs: Job[] }>("/v2/runner/jobs/lease", {
    runner_id: "r1",
    capacity: 1,
    runtimes: ["process"],
    isolation: "sandbox",
  });
  expect(res.status).toBe(200);
  const job = res.body.jobs[0];
  if (!job) throw new Error("no job leased");
  return job;
}

describe("coworld upload", () => {
  it("uploads a version, owns the name, makes the highest semver canonical, and creates the game", async () => {
    const owner = await t.newUser();
    const v1 = await uploadVersion(owner.token, "1.0.0");
    expect(v1.status).toBe(200);
    expect(v1.body.canonical).toBe(true);
    const v2 = await uploadVersion(owner.token, "1.10.0");
    expect(v2.body.canonical).toBe(true);
    const v0 = await uploadVersion(owner.token, "1.9.0");
    expect(v0.body.canonical).toBe(false);
    const list = await client(t.url).get<{ id: string; version: string; canonical: boolean }[]>(
      `/v2/coworlds?name=${manifest.game.name}`,
    );
    expect(list.body.filter((c) => c.canonical).map((c) => c.version)).toEqual(["1.10.0"]);
    const games = await client(t.url).get<{ name: string; coworld_id: string | null }[]>(
      "/v2/games",
    );
    expect(games.body.find((g) => g.name === manifest.game.name)?.coworld_id).toBe(v2.body.id);
    const other = await t.newUser();
    const stolen = await uploadVersion(other.token, "2.0.0");
    expect(stolen.status).toBe(403);
    expect((await uploadVersion(owner.token, "1.0.0")).status).toBe(409);
  });

  it("names the faulty manifest field in a 422 and stores nothing", async () => {
    const owner = await t.newUser();
    const res = await client(t.url, owner.token).post<{ detail: { loc: (string | number)[] }[] }>(
      "/v2/coworlds/upload",
      { manifest: { ...manifest, game: { ...manifest.game, name: "broken", version: "one" } } },
    );
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d) => d.loc.join("."))).toContain("body.manifest.game.version");
    expect((await client(t.url).get<unknown[]>("/v2/coworlds?name=broken")).body).toEqual([]);
  });

  it("refuses a bundle that is not a tar.gz with a 422 of the body", async () => {
    const owner = await t.newUser();
    const res = await fetch(`${t.url}/v2/coworlds/bundles`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${owner.token}`,
        "content-type": "application/octet-stream",
      },
      body: "not a tarball",
    });
    expect(res.status).toBe(422);
    expect(
      ((await res.json()) as { detail: { loc: string[]; type: string }[] }).detail[0],
    ).toMatchObject({ loc: ["body"], type: "bundle_invalid" });
  });
});

describe("certification through the work queue", () => {
  it("queues, leases (certifying), completes (certified); a second completion changes nothing", async () => {
    const owner = await t.newUser({ admin: false });
    const cw = await uploadVersion(t.adminToken, "3.0.0");
    expect(cw.status).toBe(200);
    void owner;
    expect(
      (await client(t.url).get<{ state: string }>(`/v2/coworlds/${cw.body.id}/certification`)).body
        .state,
    ).toBe("never_run");
    const queued = await client(t.url, t.adminToken).post<{
      state: string;
      episode_request_id: string;
    }>(`/v2/coworlds/${cw.body.id}/certify`);
    expect(queued.body.state).toBe("queued");
    expect(
      (await client(t.url, t.adminToken).post(`/v2/coworlds/${cw.body.id}/certify`)).status,
    ).toBe(409);
    const secret = await http("PUT", `${t.url}/v2/coworlds/secrets/${manifest.game.name}/API_KEY`, {
      token: t.adminToken,
      body: "s3cr3t-value",
      headers: { "content-type": "application/octet-stream" },
    });
    expect(secret.status).toBe(200);
    expect(secret.text).not.toContain("s3cr3t-value");

    const job = await leaseOne();
    expect(job.episode_request_id).toBe(queued.body.episode_request_id);
    expect(job.players.map((p) => p.runnable.run?.[1])).toEqual(
      ["players/greedy.ts", "players/wanderer.ts", "players/random.ts"].map((p) =>
        expect.stringContaining(p.split("/")[1] ?? p),
      ),
    );
    expect(job.secrets).toEqual({ API_KEY: "s3cr3t-value" });
    expect(job.coworld.bundle_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(
      (await client(t.url).get<{ state: string }>(`/v2/coworlds/${cw.body.id}/certification`)).body
        .state,
    ).toBe("certifying");
    expect(
      (
        await client(t.url).get<{ status: string }>(
          `/v2/episode-requests/${job.episode_request_id}`,
        )
      ).body.status,
    ).toBe("running");

    const blob = await fetch(`${t.url}/v2/runner/blobs/${job.coworld.bundle_sha256 ?? ""}`, {
      headers: { authorization: `Bearer ${await t.machineToken("runner-test")}` },
    });
    const downloaded = Buffer.from(await blob.arrayBuffer());
    expect([
      blob.status,
      downloaded.length,
      blob.status === 200 ? "" : downloaded.toString(),
    ]).toEqual([200, bundle.length, ""]);
    expect(downloaded.equals(bundle)).toBe(true);

    const replay = await fetch(`${t.url}/v2/runner/jobs/${job.job_id}/artifacts/replay`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${await t.machineToken("runner-test")}`,
        "content-type": "application/octet-stream",
        "x-lease-token": job.lease_token,
      },
      body: '{"turn":1}\n',
    });
    expect(replay.status).toBe(200);
    const results = { scores: [5, 2, 0], winner_slot: 0, turns: 30, seed: 7 };
    const done = await runner.post<{ status: string }>(
      `/v2/runner/jobs/${job.job_id}/complete`,
      { runner_id: "r1", results },
      held(job),
    );
    expect(done.body.status).toBe("completed");
    const again = await runner.post<{ status: string }>(
      `/v2/runner/jobs/${job.job_id}/complete`,
      { runner_id: "r1", results: { ...results, scores: [0, 0, 9] } },
      held(job),
    );
    expect(again.body.status).toBe("completed");

    const cert = await client(t.url).get<{ state: string; episode_request_id: string }>(
      `/v2/coworlds/${cw.body.id}/certification`,
    );
    expect(cert.body).toMatchObject({
      state: "certified",
      episode_request_id: job.episode_request_id,
    });
    const ep = await client(t.url).get<{
      status: string;
      scores: { score: number }[];
      replay_url: string;
    }>(`/v2/episode-requests/${job.episode_request_id}`);
    expect(ep.body.status).toBe("completed");
    expect(ep.body.scores.map((s) => s.score)).toEqual([5, 2, 0]);
    expect((await http("GET", ep.body.replay_url)).text).toBe('{"turn":1}\n');
    expect(
      (await client(t.url).get(`/v2/episode-requests/${job.episode_request_id}/artifacts/results`))
        .text,
    ).toContain('"winner_slot": 0');
    const stats = await client(t.url).get<{
      policy_stats: { avg_reward: number }[];
      steps: number;
    }>(`/v2/episode-requests/${job.episode_request_id}/episode-stats`);
    expect(stats.body.policy_stats.map((p) => p.avg_reward)).toEqual([5, 2, 0]);
    expect(stats.body.steps).toBe(30);
    // The secret value is in no response a user can read.
    const everything = JSON.stringify([
      ep.body,
      cert.body,
      (await client(t.url, t.adminToken).get(`/v2/coworlds/secrets/${manifest.game.name}`)).body,
    ]);
    expect(everything).not.toContain("s3cr3t-value");
  });

  it("fails certification with the failing slot named, and serves error-info", async () => {
    const cw = await uploadVersion(t.adminToken, "3.1.0");
    await client(t.url, t.adminToken).post(`/v2/coworlds/${cw.body.id}/certify`);
    const job = await leaseOne();
    const failed = await runner.post<{ status: string }>(
      `/v2/runner/jobs/${job.job_id}/fail`,
      {
        runner_id: "r1",
        error_type: "player_failure",
        error: "player in slot 1 disconnected",
        failed_policy_index: 1,
      },
      held(job),
    );
    expect(failed.body.status).toBe("failed");
    const cert = await client(t.url).get<{ state: string; error: string }>(
      `/v2/coworlds/${cw.body.id}/certification`,
    );
    expect(cert.body).toMatchObject({ state: "failed", error: "player in slot 1 disconnected" });
    const ep = await client(t.url).get<{
      status: string;
      failed_policy_index: number;
      error_type: string;
    }>(`/v2/episode-requests/${job.episode_request_id}`);
    expect(ep.body).toMatchObject({
      status: "failed",
      failed_policy_index: 1,
      error_type: "player_failure",
    });
    const info = await client(t.url).get(
      `/v2/episode-requests/${job.episode_request_id}/artifacts/error-info`,
    );
    expect(JSON.parse(info.text)).toEqual({
      error_type: "player_failure",
      error: "player in slot 1 disconnected",
      failed_policy_index: 1,
    });
  });

  it("gives a job back unrun without spending an attempt, and only to machines", async () => {
    const cw = await uploadVersion(t.adminToken, "3.2.0");
    await client(t.url, t.adminToken).post(`/v2/coworlds/${cw.body.id}/certify`);
    expect(
      (
        await client(t.url, t.adminToken).post("/v2/runner/jobs/lease", {
          runner_id: "x",
          capacity: 1,
          runtimes: ["process"],
          isolation: "sandbox",
        })
      ).status,
    ).toBe(403);
    const job = await leaseOne();
    const returned = await runner.post<{ status: string; attempts: number }>(
      `/v2/runner/jobs/${job.job_id}/fail`,
      { runner_id: "r1", error_type: "returned", error: "shutting down" },
      held(job),
    );
    expect(returned.body).toMatchObject({ status: "queued", attempts: 0 });
    const again = await leaseOne();
    expect(again.job_id).toBe(job.job_id);
    await runner.post(
      `/v2/runner/jobs/${again.job_id}/complete`,
      { runner_id: "r1", results: { scores: [1, 2, 3], winner_slot: 2, turns: 30, seed: 7 } },
      held(again),
    );
  });

  it("tries an infrastructure failure again within the job's attempts, then fails it as infrastructure", async () => {
    const cw = await uploadVersion(t.adminToken, "3.5.0");
    await client(t.url, t.adminToken).post(`/v2/coworlds/${cw.body.id}/certify`);
    const first = await leaseOne();
    const states: { status: string; attempts: number }[] = [];
    for (let job = first; ; job = await leaseOne()) {
      expect(job.job_id).toBe(first.job_id);
      const failed = await runner.post<{ status: string; attempts: number }>(
        `/v2/runner/jobs/${job.job_id}/fail`,
        {
          runner_id: "r1",
          error_type: "infrastructure",
          error: "listen EADDRINUSE 127.0.0.1:4000",
        },
        held(job),
      );
      expect(failed.status, failed.text).toBe(200);
      states.push({ status: failed.body.status, attempts: failed.body.attempts });
      if (failed.body.status !== "queued") break;
    }
    // Each attempt spent, the last one ending it.
    expect(states.length).toBeGreaterThan(1);
    expect(states.at(-1)).toEqual({ status: "failed", attempts: states.length });
    const episode = await client(t.url, t.adminToken).get<{ status: string; error_type: string }>(
      `/v2/episode-requests/${first.episode_request_id}`,
    );
    expect(episode.body).toMatchObject({ status: "failed", error_type: "infrastructure" });
  });

  it("serves the CPU a runner measured on the episode, from a retried run and from the last", async () => {
    const cw = await uploadVersion(t.adminToken, "3.6.0");
    await client(t.url, t.adminToken).post(`/v2/coworlds/${cw.body.id}/certify`);
    const busy = {
      seats: [0.4, 0.01, 0.2],
      game: 0.3,
      cpus_per_runnable: 1,
      unmeasured: null,
      runner: { cores: 2, busy_fraction: 0.99, load_average: 7.5, over_committed: true },
    };
    const first = await leaseOne();
    const failed = await runner.post<{ status: string }>(
      `/v2/runner/jobs/${first.job_id}/fail`,
      {
        runner_id: "r1",
        error_type: "infrastructure",
        error: "the runner was over-committed",
        failed_policy_index: null,
        cpu: busy,
      },
      held(first),
    );
    expect(failed.body.status).toBe("queued");
    const read = () =>
      client(t.url, t.adminToken).get<{ status: string; cpu: unknown }>(
        `/v2/episode-requests/${first.episode_request_id}`,
      );
    expect((await read()).body).toMatchObject({ status: "submitted", cpu: busy });
    const again = await leaseOne();
    const quiet = {
      ...busy,
      seats: [1.5, 0.02, 0.7],
      runner: { cores: 2, busy_fraction: 0.4, load_average: 0.8, over_committed: false },
    };
    await runner.post(
      `/v2/runner/jobs/${again.job_id}/complete`,
      { runner_id: "r1", results: { scores: [1, 2, 3] }, cpu: quiet },
      held(again),
    );
    expect((await read()).body).toMatchObject({ status: "completed", cpu: quiet });
    const bad = await runner.post<{ detail: { loc: string[] }[] }>(
      `/v2/runner/jobs/${again.job_id}/complete`,
      { runner_id: "r1", results: { scores: [1, 2, 3] }, cpu: { ...quiet, seats: [-1] } },
      held(again),
    );
    expect(bad.status).toBe(422);
  });

  it("serves a draw's game stats as numbers, its other results beside them", async () => {
    const cw = await uploadVersion(t.adminToken, "3.4.0");
    await client(t.url, t.adminToken).post(`/v2/coworlds/${cw.body.id}/certify`);
    const job = await leaseOne();
    const results = { scores: [1, 1, 1], winner_slot: null, turns: 12, outcome: "draw" };
    await runner.post(
      `/v2/runner/jobs/${job.job_id}/complete`,
      { runner_id: "r1", results },
      held(job),
    );
    const stats = await client(t.url).get<{
      game_stats: Record<string, unknown>;
      results: Record<string, unknown> | null;
    }>(`/v2/episode-requests/${job.episode_request_id}/episode-stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.game_stats).toEqual({ turns: 12 });
    expect(stats.body.results).toEqual({ winner_slot: null, turns: 12, outcome: "draw" });
  });

  it("rejects results without one score per seat, keeping the job open", async () => {
    const cw = await uploadVersion(t.adminToken, "3.3.0");
    await client(t.url, t.adminToken).post(`/v2/coworlds/${cw.body.id}/certify`);
    const job = await leaseOne();
    const bad = await runner.post<{ detail: { loc: string[] }[] }>(
      `/v2/runner/jobs/${job.job_id}/complete`,
      { runner_id: "r1", results: { scores: [1] } },
      held(job),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]?.loc).toEqual(["body", "results", "scores"]);
    const hb = await runner.post<{ cancel: boolean }>(
      `/v2/runner/jobs/${job.job_id}/heartbeat`,
      { runner_id: "r1" },
      held(job),
    );
    expect(hb.body.cancel).toBe(false);
    await runner.post(
      `/v2/runner/jobs/${job.job_id}/complete`,
      { runner_id: "r1", results: { scores: [1, 2, 3], winner_slot: 2, turns: 30, seed: 7 } },
      held(job),
    );
    expect(
      (
        await runner.post<{ cancel: boolean }>(
          `/v2/runner/jobs/${job.job_id}/heartbeat`,
          { runner_id: "r1" },
          held(job),
        )
      ).body.cancel,
    ).toBe(true);
  });
});

describe("episode request reads", () => {
  it("lists newest first with a cursor, and feeds changes in order", async () => {
    const page1 = await client(t.url).get<{
      entries: { id: string }[];
      next_cursor: string | null;
    }>("/v2/episode-requests?limit=2");
    expect(page1.body.entries).toHaveLength(2);
    expect(page1.body.next_cursor).not.toBeNull();
    const page2 = await client(t.url).get<{ entries: { id: string }[] }>(
      `/v2/episode-requests?limit=2&cursor=${page1.body.next_cursor ?? ""}`,
    );
    const ids1 = page1.body.entries.map((e) => e.id);
    expect(page2.body.entries.map((e) => e.id).some((id) => ids1.includes(id))).toBe(false);
    const changes = await client(t.url).get<{ entries: unknown[]; next_cursor: string }>(
      "/v2/episode-requests/changes?limit=500",
    );
    expect(changes.body.entries.length).toBeGreaterThanOrEqual(4);
    const after = await client(t.url).get<{ entries: unknown[]; next_cursor: string }>(
      `/v2/episode-requests/changes?cursor=${changes.body.next_cursor}`,
    );
    expect(after.body.entries).toEqual([]);
    expect(after.body.next_cursor).toBe(changes.body.next_cursor);
    expect((await client(t.url).get("/v2/episode-requests?cursor=garbage")).status).toBe(422);
  });
});
