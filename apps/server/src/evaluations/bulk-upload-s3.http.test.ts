// Bulk episode upload with the blobs in an S3-compatible bucket (a real S3 server, s3rver): the
// presigned address is the bucket's own, the client PUTs the DuckDB file there without the
// server in the way, and completion reads it from the bucket — 50 episodes, idempotent, and a
// completion before the file arrived is a 409 that stores nothing.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";

import type { BulkUploadCompleted, BulkUploadStarted, EpisodeStats } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startS3Server, type TestS3Server } from "../../testing/s3-server.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { writeEpisodeFile } from "../../testing/test-episode-file.ts";
import { createTestLeague, type TestLeague, type TestPlayer } from "../../testing/test-league.ts";

let s3: TestS3Server;
let t: TestServer;
let tl: TestLeague;
let ada: TestPlayer;
let bob: TestPlayer;
let dir: string;

beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestServer({
    env: { GAUNTLET_SCHEDULER: "off" },
    config: { blobStore: { kind: "s3", ...s3.options, prefix: "gauntlet-test" } },
  });
  tl = await createTestLeague(t);
  ada = await tl.addPlayer("Ada");
  bob = await tl.addPlayer("Bob");
  dir = mkdtempSync(join(tmpdir(), "gauntlet-bulk-s3-"));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = () => client(t.url, tl.commissioner.token);
type Completed = BulkUploadCompleted & { detail: { type: string; message: string } };

describe("bulk episode upload to an S3 bucket", () => {
  it("PUTs to the bucket's presigned address, completes from it once, and refuses to complete before the file arrived", async () => {
    const path = join(dir, "episodes.duckdb");
    await writeEpisodeFile(path, {
      episodes: 50,
      coworldId: tl.coworldId,
      policyVersionIds: [ada.policyVersionId, bob.policyVersionId],
    });
    const started = (
      await api().post<BulkUploadStarted>("/stats/episodes/bulk_upload/presigned-url")
    ).body;
    expect(started.upload_url.startsWith(`${s3.endpoint}/gauntlet/`)).toBe(true);
    expect(started.upload_url).toContain("X-Amz-Signature=");

    const early = await api().post<Completed>("/stats/episodes/bulk_upload/complete", {
      upload_id: started.upload_id,
    });
    expect(early.status).toBe(409);
    expect(early.body.detail.type).toBe("upload_incomplete");

    const put = await fetch(started.upload_url, {
      method: "PUT",
      body: new Uint8Array(readFileSync(path)),
    });
    expect(put.status).toBe(200);
    const done = await api().post<Completed>("/stats/episodes/bulk_upload/complete", {
      upload_id: started.upload_id,
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.episodes_created).toBe(50);
    expect(done.body.duckdb_s3_uri).toMatch(
      /^s3:\/\/gauntlet\/gauntlet-test\/sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/,
    );
    const again = await api().post<Completed>("/stats/episodes/bulk_upload/complete", {
      upload_id: started.upload_id,
    });
    expect(again.body).toEqual(done.body);

    // The ingested episodes read back as episodes, with their stats.
    const stored = await t.server.store.db
      .selectFrom("episode_requests")
      .select("id")
      .where("bulk_upload_id", "=", started.upload_id)
      .execute();
    expect(stored).toHaveLength(50);
    const stats = await api().get<z.infer<typeof EpisodeStats>>(
      `/v2/episode-requests/${stored[0]?.id ?? ""}/episode-stats`,
    );
    expect(stats.status).toBe(200);
    expect(stats.body.policy_stats.map((p) => p.policy_version_id)).toEqual([
      ada.policyVersionId,
      bob.policyVersionId,
    ]);
  }, 120_000);
});
