// Bulk episode upload over real HTTP with real DuckDB files made here (SQLite, or PostgreSQL
// when DATABASE_URL is set): 50 episodes ingest and read back as episodes with stats per
// policy version; completing again is idempotent; each bad case is a clear 4xx storing nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";

import type {
  BulkUploadCompleted,
  BulkUploadStarted,
  EpisodeRequest,
  EpisodeStats,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  rewardOf,
  writeEpisodeFile,
  type EpisodeFileOptions,
} from "../../testing/test-episode-file.ts";
import { createTestLeague, type TestLeague, type TestPlayer } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let ada: TestPlayer;
let bob: TestPlayer;
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  ada = await tl.addPlayer("Ada");
  bob = await tl.addPlayer("Bob");
  dir = mkdtempSync(join(tmpdir(), "gauntlet-bulk-test-"));
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = () => client(t.url, tl.commissioner.token);
let fileNo = 0;

async function file(options: Partial<EpisodeFileOptions> = {}): Promise<Buffer> {
  const path = join(dir, `f${fileNo++}.duckdb`);
  await writeEpisodeFile(path, {
    episodes: 50,
    coworldId: tl.coworldId,
    policyVersionIds: [ada.policyVersionId, bob.policyVersionId],
    ...options,
  });
  return readFileSync(path);
}

async function upload(bytes: Buffer): Promise<BulkUploadStarted> {
  const started = await api().post<BulkUploadStarted>("/stats/episodes/bulk_upload/presigned-url");
  expect(started.status, started.text).toBe(200);
  const put = await fetch(started.body.upload_url, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  expect(put.status, await put.clone().text()).toBe(200);
  return started.body;
}

const complete = (uploadId: string, token = tl.commissioner.token) =>
  client(t.url, token).post<BulkUploadCompleted & { detail: { type: string; message: string } }>(
    "/stats/episodes/bulk_upload/complete",
    { upload_id: uploadId },
  );

async function uploadedCount(): Promise<number> {
  const rows = await t.server.store.db
    .selectFrom("episode_requests")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("purpose", "=", "upload")
    .executeTakeFirstOrThrow();
  return Number(rows.n);
}

describe("bulk episode upload", () => {
  it("ingests 50 episodes, readable as episodes with stats per policy version; again is idempotent", async () => {
    const started = await upload(await file());
    expect(started.s3_key).toContain(started.upload_id);
    const before = await uploadedCount();
    const done = await complete(started.upload_id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.episodes_created).toBe(50);
    expect(done.body.duckdb_s3_uri).toMatch(/^blobs:\/\/sha256\/[0-9a-f]{64}$/);
    expect(await uploadedCount()).toBe(before + 50);

    const again = await complete(started.upload_id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done.body);
    expect(await uploadedCount()).toBe(before + 50);

    const page = await api().get<{ entries: EpisodeRequest[] }>(
      `/v2/episode-requests?policy_version_id=${bob.policyVersionId}&limit=100`,
    );
    const uploaded = page.body.entries.filter((e) => e.status === "completed" && e.job_id === null);
    expect(uploaded).toHaveLength(50);
    const first = uploaded.find((e) => e.created_at.startsWith("2026-01-01T00:00:00"));
    if (!first) throw new Error("episode 0 not found");
    expect(first.participants.map((p) => p.policy_version_id)).toEqual([
      ada.policyVersionId,
      bob.policyVersionId,
    ]);
    expect(first.scores.map((s) => s.score)).toEqual([rewardOf(0, 0), rewardOf(0, 1)]);
    const stats = await api().get<z.infer<typeof EpisodeStats>>(
      `/v2/episode-requests/${first.id}/episode-stats`,
    );
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body.policy_stats[1]).toMatchObject({
      policy_version_id: bob.policyVersionId,
      num_agents: 1,
      avg_reward: rewardOf(0, 1),
      avg_metrics: { reward: rewardOf(0, 1), hearts: 2 },
    });
    expect(stats.body.upload).toMatchObject({
      source_episode_id: "ep-0000000",
      tags: { source: "elsewhere" },
    });
  }, 60_000);

  it("answers 404 for an unknown upload, 422 for an id not in UUID format, 403 for a bad signature", async () => {
    expect((await complete("7e0c5c55-8d4b-4d54-9f4e-3c1f1a6a0f00")).status).toBe(404);
    const bad = await complete("not-a-uuid");
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("upload_id");
    const started = await api().post<BulkUploadStarted>(
      "/stats/episodes/bulk_upload/presigned-url",
    );
    const forged = started.body.upload_url.replace(/signature=[^&]+/, "signature=forged");
    expect(
      (
        await fetch(forged, {
          method: "PUT",
          headers: { "content-type": "application/octet-stream" },
          body: new Uint8Array([1, 2, 3]),
        })
      ).status,
    ).toBe(403);
    // Not yet uploaded: a clear conflict, not a crash.
    expect((await complete(started.body.upload_id)).status).toBe(409);
    // Another user's upload is not found.
    const stranger = await t.newUser();
    expect((await complete(started.body.upload_id, stranger.token)).status).toBe(404);
  }, 60_000);

  it("refuses a file that is not DuckDB, or lacks a table or a column, naming what is missing, and stores nothing", async () => {
    const before = await uploadedCount();
    const cases: [Buffer, string][] = [
      [Buffer.from("episode_id,agent_id\n1,2\n"), "not a DuckDB database"],
      [await file({ omitTable: "episode_agent_metrics" }), "table episode_agent_metrics"],
      [
        await file({
          omitColumn: { table: "episode_agent_policies", column: "policy_version_id" },
        }),
        "column episode_agent_policies.policy_version_id",
      ],
      [
        await file({ coworldId: "coworld_00000000-0000-4000-8000-000000000000" }),
        "is not a coworld on this server",
      ],
      [
        await file({
          policyVersionIds: [ada.policyVersionId, "00000000-0000-4000-8000-000000000000"],
        }),
        "is not one of your policy versions",
      ],
    ];
    for (const [bytes, message] of cases) {
      const started = await upload(bytes);
      const res = await complete(started.upload_id);
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail.type).toBe("invalid_upload");
      expect(res.body.detail.message).toContain(message);
    }
    expect(await uploadedCount()).toBe(before);
  }, 120_000);

  it("credits only the uploader's own policy versions: another user's is refused like an unknown one", async () => {
    const stranger = await t.newUser();
    const theirs = await tl.addPlayer("Eve", { owner: stranger });
    const before = await uploadedCount();
    const started = await upload(
      await file({ policyVersionIds: [ada.policyVersionId, theirs.policyVersionId] }),
    );
    const res = await complete(started.upload_id);
    expect(res.status, res.text).toBe(400);
    expect(res.body.detail.message).toBe(
      `episode_agent_policies.policy_version_id ${theirs.policyVersionId} is not one of your policy versions: an upload credits only the uploader's own`,
    );
    expect(await uploadedCount()).toBe(before);
  }, 60_000);

  it("refuses a file whose episode_tags is a view over the server's files, and nothing is served", async () => {
    const secretFile = join(dir, "first-admin.txt");
    writeFileSync(secretFile, "the-admin-password-is-hunter2");
    const before = await uploadedCount();
    const started = await upload(
      await file({
        episodes: 2,
        then: [
          "drop table episode_tags",
          `create view episode_tags as select 'ep-0000000' as episode_id, 'leak' as key, content as value from read_text(['${secretFile}'])`,
        ],
      }),
    );
    const res = await complete(started.upload_id);
    expect(res.status, res.text).toBe(400);
    expect(res.body.detail.message).toContain("episode_tags is a view in the DuckDB file");
    expect(res.text).not.toContain("hunter2");
    expect(await uploadedCount()).toBe(before);
  }, 60_000);

  it("takes an upstream-format file whole: coworld from the policy versions, what the file says served back", async () => {
    // The versions play the league's coworld once submitted (their certification episodes).
    await tl.submit(ada);
    await tl.submit(bob);
    const started = await upload(await file({ episodes: 3, upstream: true }));
    const done = await complete(started.upload_id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.episodes_created).toBe(3);
    const stored = await t.server.store.db
      .selectFrom("episode_requests")
      .select(["id", "coworld_id"])
      .where("bulk_upload_id", "=", started.upload_id)
      .orderBy("created_at")
      .execute();
    expect(stored.map((e) => e.coworld_id)).toEqual([tl.coworldId, tl.coworldId, tl.coworldId]);
    const stats = await Promise.all(
      stored.map(
        async (e) =>
          (
            await api().get<z.infer<typeof EpisodeStats>>(
              `/v2/episode-requests/${e.id}/episode-stats`,
            )
          ).body,
      ),
    );
    const second = stats.find((s) => s.upload?.source_episode_id === "ep-0000001");
    expect(second?.upload).toEqual({
      source_episode_id: "ep-0000001",
      primary_policy_version_id: ada.policyVersionId,
      replay_url: "https://replays.example/1",
      thumbnail_url: "https://thumbs.example/1",
      attributes: { episode: 1, map: "arena" },
      eval_task_id: "task-1",
      tags: { source: "elsewhere" },
    });
    expect(second?.game_stats).toEqual({});
    expect(second?.policy_stats.map((p) => [p.policy_version_id, p.policy_metrics])).toEqual([
      [ada.policyVersionId, { avg_reward: rewardOf(1, 0) }],
      [bob.policyVersionId, { avg_reward: rewardOf(1, 1) }],
    ]);
  }, 60_000);
});
