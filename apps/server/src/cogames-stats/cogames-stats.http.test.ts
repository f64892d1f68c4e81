// cogames' policy upload, policy browsing, episodes and assay runs over real HTTP (SQLite, or
// PostgreSQL when DATABASE_URL is set): a zip PUT to its address becomes a version, episodes
// played and uploaded read back in cogames' shapes, and an assay run plays its missions as
// experience requests that a scripted runner completes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  AssayResults,
  AssayRun,
  BulkUploadStarted,
  CogamesEpisode,
  PoliciesPage,
  PolicySubmitCompleted,
  PolicySubmitStarted,
  PolicyVersion,
} from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { rewardOf, writeEpisodeFile } from "../../testing/test-episode-file.ts";
import {
  createTestLeague,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";
import { zipBomb } from "../../testing/zip-bomb.ts";

let t: TestServer;
let tl: TestLeague;
let ada: TestPlayer;
let bob: TestPlayer;
let runner: ScriptedRunner;
let stranger: { token: string };
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  ada = await tl.addPlayer("Ada");
  bob = await tl.addPlayer("Bob");
  runner = await scriptedRunner(t);
  stranger = await t.newUser();
  dir = mkdtempSync(join(tmpdir(), "gauntlet-cogames-test-"));
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

// cogames sends its token as X-Auth-Token.
const cogames = (token = tl.commissioner.token) => {
  const headers = { "x-auth-token": token };
  return {
    get: <T = unknown>(path: string) => http<T>("GET", t.url + path, { headers }),
    post: <T = unknown>(path: string, body?: unknown) =>
      http<T>("POST", t.url + path, { headers, body }),
  };
};

const policyZip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));

async function uploadZip(bytes: Uint8Array, token = tl.commissioner.token) {
  const started = await cogames(token).post<PolicySubmitStarted>(
    "/stats/policies/submit/presigned-url",
  );
  expect(started.status, started.text).toBe(200);
  const put = await fetch(started.body.upload_url, {
    method: "PUT",
    headers: { "content-type": "application/zip" },
    body: bytes,
  });
  expect(put.status, await put.clone().text()).toBe(200);
  return started.body;
}

const complete = (uploadId: string, name: string, extra: Record<string, unknown> = {}) =>
  cogames().post<PolicySubmitCompleted & { detail: { loc: unknown[]; type: string }[] }>(
    "/stats/policies/submit/complete",
    { upload_id: uploadId, name, ...extra },
  );

describe("cogames policy upload", () => {
  it("refuses a zip bomb within seconds by the archive budgets, while /healthz keeps answering", async () => {
    // 40 entries of 16 MiB: about 640 KB sent, 640 MiB unpacked (under the old 1 GiB bound).
    const bomb = await uploadZip(zipBomb(40, 16 << 20));
    const started = performance.now();
    let done = false as boolean; // set when the completion answers, while the reads loop
    const refusal = complete(bomb.upload_id, "bomb").finally(() => (done = true));
    let slowest = 0;
    while (!done) {
      const at = performance.now();
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
      slowest = Math.max(slowest, performance.now() - at);
    }
    const refused = await refusal;
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({
      loc: ["body", "upload_id"],
      type: "bundle_invalid",
    });
    expect(refused.text).toMatch(/unpacks to more than 100 times its size/);
    // Loose bounds for a busy machine; bench archives measures the strict ones.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(slowest).toBeLessThan(1_000);
  });

  it("refuses a zip that lies about its sizes or its CRC, naming the entry, while /healthz keeps answering", async () => {
    // Its directory declares 1 KiB; its deflate stream inflates to 200 MiB.
    const liar = await uploadZip(zipBomb(1, 200 << 20, { declaredSize: 1024 }));
    let done = false as boolean; // set when the completion answers, while the reads loop
    const refusal = complete(liar.upload_id, "liar").finally(() => (done = true));
    let reads = 0;
    while (!done) {
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
      reads += 1;
    }
    expect(reads).toBeGreaterThan(0);
    const refused = await refusal;
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({
      loc: ["body", "upload_id"],
      type: "bundle_invalid",
    });
    expect(refused.text).toContain(
      'entry \\"zeros-0.bin\\" inflates to more than its declared 1024 bytes',
    );

    // A stored file changed after it was zipped: the sizes agree, the checksum does not.
    const zip = Buffer.from(
      zipSync({
        "policy_spec.json": strToU8("{}"),
        "agent.py": [strToU8("x = 1\n"), { level: 0 }],
      }),
    );
    zip[zip.indexOf("x = 1")] = "y".charCodeAt(0);
    const changed = await complete((await uploadZip(zip)).upload_id, "changed");
    expect(changed.status).toBe(422);
    expect(changed.text).toMatch(/entry \\"agent\.py\\" fails its CRC-32 check/);
    const none = await cogames().get<PoliciesPage>("/stats/policies?name_exact=liar");
    expect(none.body.total_count).toBe(0);
  });

  it("turns the zip into a policy bundle of the same files and a new version; completing again answers it", async () => {
    const spec = JSON.stringify({ class_path: "agent.Policy", init_kwargs: {} });
    const started = await uploadZip(
      policyZip({ "policy_spec.json": spec, "agent/__init__.py": "class Policy: ...\n" }),
    );
    expect(started.s3_key).toContain(started.upload_id);
    const first = await complete(started.upload_id, "zipper", { policy_secret_env: { KEY: "v" } });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ name: "zipper", version: 1, pools: null });
    const again = await complete(started.upload_id, "zipper");
    expect(again.body.id).toBe(first.body.id);

    const version = await cogames().get<PolicyVersion>(`/stats/policy-versions/${first.body.id}`);
    expect(version.body).toMatchObject({
      name: "zipper",
      version: 1,
      policy_bundle_id: first.body.policy_bundle_id,
      run: null,
      has_secret_env: true,
      tags: { bundle_format: "cogames" },
    });
    // The bundle holds the zip's files: a runnable version may start one of them, not another.
    const runnable = (run: string[]) =>
      client(t.url, tl.commissioner.token).post("/stats/policies/docker-img/complete", {
        name: "zipper-runnable",
        policy_bundle_id: first.body.policy_bundle_id,
        run,
      });
    expect((await runnable(["python3", "agent/__init__.py"])).status).toBe(200);
    const missing = await runnable(["python3", "missing.py"]);
    expect(missing.status).toBe(422);
    expect(missing.text).toContain("missing.py");

    // A second upload under the same name is version 2; the browser counts both.
    const second = await complete((await uploadZip(policyZip({ "a.py": "" }))).upload_id, "zipper");
    expect(second.body.version).toBe(2);
    const page = await cogames().get<PoliciesPage>("/stats/policies?name_exact=zipper");
    expect(page.body.total_count).toBe(1);
    expect(page.body.entries[0]).toMatchObject({
      name: "zipper",
      user_id: tl.commissioner.id,
      version_count: 2,
      latest_version: 2,
      latest_version_id: second.body.id,
    });
    const fuzzy = await cogames().get<PoliciesPage>("/stats/policies?name_fuzzy=IPP");
    expect(fuzzy.body.entries.map((e) => e.name)).toContain("zipper");
    const mine = await cogames().get<{ entries: PolicyVersion[] }>(
      "/stats/policy-versions?mine=true&name_exact=zipper&version=2",
    );
    expect(mine.body.entries.map((e) => e.id)).toEqual([second.body.id]);
  });

  it("refuses an unsafe or broken zip at body.upload_id, nothing PUT with 409, a forged address with 403", async () => {
    const unsafe = await uploadZip(policyZip({ "../escape.py": "x" }));
    const refused = await complete(unsafe.upload_id, "unsafe");
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({
      loc: ["body", "upload_id"],
      type: "bundle_invalid",
    });
    expect(refused.text).toContain("../escape.py");

    const notZip = await uploadZip(strToU8("not a zip at all"));
    expect((await complete(notZip.upload_id, "broken")).status).toBe(422);

    const empty = await cogames().post<PolicySubmitStarted>("/stats/policies/submit/presigned-url");
    expect((await complete(empty.body.upload_id, "empty")).status).toBe(409);
    const forged = empty.body.upload_url.replace(/signature=[^&]+/, "signature=forged");
    expect((await fetch(forged, { method: "PUT", body: "x" })).status).toBe(403);

    // Another user's upload is not the caller's to complete.
    const theirs = await uploadZip(policyZip({ "a.py": "" }), stranger.token);
    expect((await complete(theirs.upload_id, "stolen")).status).toBe(422);
    const none = await cogames().get<PoliciesPage>("/stats/policies?name_exact=unsafe");
    expect(none.body.total_count).toBe(0);
  });
});

describe("cogames episodes", () => {
  let played: string[] = [];

  beforeAll(async () => {
    const created = await client(t.url, tl.commissioner.token).post<{ id: string }>(
      "/v2/experience-requests",
      {
        coworld_id: tl.coworldId,
        roster: [
          { player: { policy_ref: ada.policyVersionId } },
          { player: { policy_ref: bob.policyVersionId } },
        ],
        num_episodes: 2,
      },
    );
    expect(created.status, created.text).toBe(201);
    const jobs = await runner.runQueued(() => [3, 5]);
    played = jobs.map((j) => j.episode_request_id.replace(/^ereq_/, ""));
    expect(played).toHaveLength(2);
    // An upstream-format file: no coworld_id, its primary version, attributes and tags.
    const path = join(dir, "upstream.duckdb");
    await writeEpisodeFile(path, {
      episodes: 2,
      coworldId: tl.coworldId,
      policyVersionIds: [ada.policyVersionId, bob.policyVersionId],
      upstream: true,
    });
    const api = client(t.url, tl.commissioner.token);
    const started = await api.post<BulkUploadStarted>("/stats/episodes/bulk_upload/presigned-url");
    await fetch(started.body.upload_url, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: readFileSync(path),
    });
    const done = await api.post("/stats/episodes/bulk_upload/complete", {
      upload_id: started.body.upload_id,
    });
    expect(done.status, done.text).toBe(200);
  }, 60_000);

  it("lists and gets episodes with results per policy version, filtered by version and tags", async () => {
    const list = await cogames().get<CogamesEpisode[]>(
      `/episodes?policy_version_id=${ada.policyVersionId}&tags=purpose:experience&limit=10`,
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((e) => e.id).sort()).toEqual([...played].sort());
    const [first] = list.body;
    if (!first) throw new Error("no episode");
    expect(first.tags).toMatchObject({ purpose: "experience", coworld_id: tl.coworldId });
    expect(first.policy_results.map((p) => [p.policy.id, p.avg_reward])).toEqual([
      [ada.policyVersionId, 3],
      [bob.policyVersionId, 5],
    ]);
    expect(first.steps).toBe(5);
    const one = await cogames().get<CogamesEpisode>(`/episodes/${first.id}`);
    expect(one.body).toEqual(first);

    const uploaded = await cogames().get<CogamesEpisode[]>("/episodes?tags=source:elsewhere");
    expect(uploaded.body).toHaveLength(2);
    expect(uploaded.body.map((e) => e.thumbnail_url).sort()).toEqual([
      "https://thumbs.example/0",
      "https://thumbs.example/1",
    ]);
    const paged = await cogames().get<CogamesEpisode[]>("/episodes?limit=1&offset=1");
    expect(paged.body).toHaveLength(1);

    // Another user sees none of them; an unknown id is 404.
    expect((await cogames(stranger.token).get<CogamesEpisode[]>("/episodes")).body).toEqual([]);
    expect((await cogames(stranger.token).get(`/episodes/${first.id}`)).status).toBe(404);
  });

  it("queries by primary policy version (an upload's primary_pv_id), ids and tag filters", async () => {
    type Result = {
      episodes: {
        id: string;
        attributes: unknown;
        avg_rewards: Record<string, number>;
        tags: Record<string, string>;
      }[];
    };
    const byBob = await cogames().post<Result>("/stats/episodes/query", {
      primary_policy_version_ids: [bob.policyVersionId],
    });
    expect(byBob.status, byBob.text).toBe(200);
    // The uploads' primary is Ada: only the episodes run here (any seated version) match Bob.
    expect(byBob.body.episodes.map((e) => e.id).sort()).toEqual([...played].sort());
    const uploads = await cogames().post<Result>("/stats/episodes/query", {
      primary_policy_version_ids: [ada.policyVersionId],
      tag_filters: { source: ["elsewhere"] },
    });
    expect(uploads.body.episodes).toHaveLength(2);
    const ep1 = uploads.body.episodes.find(
      (e) => (e.attributes as { episode?: number } | null)?.episode === 1,
    );
    expect(ep1?.avg_rewards).toEqual({
      [ada.policyVersionId]: rewardOf(1, 0),
      [bob.policyVersionId]: rewardOf(1, 1),
    });
    const byId = await cogames().post<Result>("/stats/episodes/query", {
      episode_ids: [played[0]],
      tag_filters: { purpose: null },
    });
    expect(byId.body.episodes.map((e) => e.id)).toEqual([played[0]]);
    const bad = await cogames().post("/stats/episodes/query", { episode_ids: ["nope"] });
    expect(bad.status).toBe(422);
  });
});

describe("assay runs", () => {
  it("plays each mission as an experience request and settles once its episodes have ended", async () => {
    const api = cogames();
    const body = {
      policy_version_id: ada.policyVersionId,
      name: "nightly",
      missions: [
        { mission_name: "duel-small", env_config: {}, num_episodes: 2, max_steps: 100 },
        { mission_name: "elsewhere-mission", env_config: {}, num_episodes: 1 },
      ],
    };
    const created = await api.post<AssayRun>("/assay/runs", body);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      status: "pending",
      total_jobs: 3,
      completed_jobs: 0,
      user_id: tl.commissioner.id,
    });
    expect(created.body.experience_request_ids).toHaveLength(2);
    expect((await api.post("/assay/runs", body)).status).toBe(409);
    expect((await api.post(`/assay/runs/${created.body.id}/finalize`)).status).toBe(409);

    const jobs = await runner.runQueued((names) => names.map((_, i) => (i === 0 ? 4 : 0)));
    expect(jobs).toHaveLength(3);
    const run = await api.get<AssayRun>(`/assay/runs/${created.body.id}`);
    expect(run.body).toMatchObject({ status: "pending", completed_jobs: 3, failed_jobs: 0 });
    const final = await api.post<AssayRun>(`/assay/runs/${created.body.id}/finalize`);
    expect(final.body.status).toBe("completed");
    expect(final.body.completed_at).not.toBeNull();
    const results = await api.get<AssayResults>(`/assay/runs/${created.body.id}/results`);
    expect(results.body.status).toBe("completed");
    expect(Object.keys(results.body.missions).sort()).toEqual(["duel-small", "elsewhere-mission"]);
    // Every seat is Ada: seat 0 scores 4 and seat 1 0, a mean of 2 in every episode.
    expect(results.body.missions["duel-small"]).toMatchObject({
      reward_variance: 0,
      non_zero_episode_pct: 100,
      timeout_rate: 0,
    });
    const listed = await api.get<AssayRun[]>(
      `/assay/runs?policy_version_id=${ada.policyVersionId}`,
    );
    expect(listed.body.map((r) => r.id)).toEqual([created.body.id]);
    // A name may be used again once the run is settled.
    expect((await api.post("/assay/runs", { ...body, missions: [body.missions[1]] })).status).toBe(
      200,
    );
  });

  it("is its owner's: others get 404, and another user's version is refused", async () => {
    const run = await cogames().post<AssayRun>("/assay/runs", {
      policy_version_id: bob.policyVersionId,
      missions: [{ mission_name: "duel-small", env_config: {} }],
    });
    expect(run.status, run.text).toBe(200);
    const other = cogames(stranger.token);
    expect((await other.get(`/assay/runs/${run.body.id}`)).status).toBe(404);
    expect((await other.get(`/assay/runs/${run.body.id}/results`)).status).toBe(404);
    expect((await other.get<AssayRun[]>("/assay/runs")).body).toEqual([]);
    const refused = await other.post<{ detail: { loc: unknown[] }[] }>("/assay/runs", {
      policy_version_id: bob.policyVersionId,
      missions: [{ mission_name: "duel-small", env_config: {} }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]?.loc).toEqual(["body", "policy_version_id"]);
    expect((await http("GET", `${t.url}/assay/runs`)).status).toBe(401);
  });
});
