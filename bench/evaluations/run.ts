// Bulk episode upload: completion time for a 100,000-episode DuckDB file (the path users take:
// PUT to the signed address, then POST …/complete over HTTP), beside a row-by-row insert of the
// same rows (one INSERT per episode and per seat, in one transaction), in one run. The server
// runs in this process on SQLite in a temporary directory, or on PostgreSQL with DATABASE_URL.
//
//   node bench/evaluations/run.ts                 (100,000 episodes)
//   BENCH_EPISODES=20000 node bench/evaluations/run.ts
//
// Not a test: numbers depend on the machine. Target: completion under 10 s on 2 cores.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import type { BulkUploadCompleted, BulkUploadStarted } from "@gauntlet/core";
import { ingestRows, readEpisodeFile } from "@gauntlet/server/bench";
import {
  client,
  createTestLeague,
  startTestServer,
  writeEpisodeFile,
} from "@gauntlet/server/testing";

const EPISODES = Number(process.env.BENCH_EPISODES ?? 100_000);

const t = await startTestServer({
  env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_RATE_LIMIT_MODE: "off" },
});
try {
  const tl = await createTestLeague(t);
  const ada = await tl.addPlayer("Ada");
  const bob = await tl.addPlayer("Bob");
  const path = join(t.testStore.dataDir, "bench.duckdb");
  let start = performance.now();
  await writeEpisodeFile(path, {
    episodes: EPISODES,
    coworldId: tl.coworldId,
    policyVersionIds: [ada.policyVersionId, bob.policyVersionId],
  });
  const writeMs = performance.now() - start;
  const bytes = readFileSync(path);

  // 1. The bulk path, over HTTP.
  const api = client(t.url, tl.commissioner.token);
  const started = (await api.post<BulkUploadStarted>("/stats/episodes/bulk_upload/presigned-url"))
    .body;
  start = performance.now();
  const put = await fetch(started.upload_url, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
  const putMs = performance.now() - start;
  start = performance.now();
  const done = await api.post<BulkUploadCompleted>("/stats/episodes/bulk_upload/complete", {
    upload_id: started.upload_id,
  });
  const completeMs = performance.now() - start;
  if (done.status !== 200 || done.body.episodes_created !== EPISODES)
    throw new Error(`complete: ${done.status} ${done.text}`);

  // 2. The same rows, one INSERT per row (read from the same file the same way).
  const db = t.server.store.db;
  start = performance.now();
  const episodes = await readEpisodeFile(path);
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("is_admin", "=", 1)
    .executeTakeFirstOrThrow();
  const rows = await ingestRows(db, admin.id, started.upload_id, episodes);
  const readMs = performance.now() - start;
  start = performance.now();
  await db.transaction().execute(async (trx) => {
    let seq = 1_000_000_000;
    for (const e of rows.episodes)
      await trx
        .insertInto("episode_requests")
        .values({ ...e, change_seq: seq++ })
        .execute();
    for (const p of rows.participants)
      await trx.insertInto("episode_participants").values(p).execute();
  });
  const rowByRowMs = performance.now() - start + readMs;

  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `bulk upload of ${EPISODES.toLocaleString("en")} episodes (${(statSync(path).size / 1e6).toFixed(1)} MB DuckDB file, ${rows.participants.length.toLocaleString("en")} seats), store ${process.env.DATABASE_URL ? "PostgreSQL" : "SQLite"}`,
  );
  console.log(`  writing the file (DuckDB, not timed below)     ${s(writeMs)}`);
  console.log(`  PUT to the signed address                      ${s(putMs)}`);
  console.log(
    `  POST …/complete (read + one batched txn)       ${s(completeMs)}   target < 10 s: ${completeMs < 10_000 ? "met" : "NOT met"}`,
  );
  console.log(
    `  row by row (same read, one INSERT per row)     ${s(rowByRowMs)}   (of which reading the file and building rows ${s(readMs)})`,
  );
  console.log(
    `  ratio row-by-row / complete                    ${(rowByRowMs / completeMs).toFixed(2)}x`,
  );
} finally {
  await t.close();
}
