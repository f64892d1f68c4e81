// The compaction the server runs by itself (every GAUNTLET_RETENTION_INTERVAL_MS): expire the
// files of old round episodes, delete old finished commissioner jobs with their logs, delete
// blobs no row names, and give SQLite's freed pages and
// write-ahead log back to the file system.
import { sql, type Kysely } from "kysely";

import type { BlobStore } from "../blobs/blob-store.ts";
import type { Engine } from "../store/database.ts";
import type { Database } from "../store/schema.ts";
import { expireRoundArtifacts } from "./expire-artifacts.ts";
import { expireCommissionerJobs } from "./expire-commissioner-jobs.ts";
import { referencedBlobs } from "./referenced-blobs.ts";
import type { RetentionSettings } from "./settings.ts";

export interface CompactionReport {
  episodesExpired: number;
  commissionerJobsDeleted: number;
  blobsDeleted: number;
  bytesFreed: number;
  vacuumed: boolean;
}

/** VACUUM rewrites the whole file: only when this share of it is free pages. */
const VACUUM_FREE_SHARE = 0.25;

/** Deletes the blobs no row names that were last written before `graceMs` ago. */
export async function sweepBlobs(
  db: Kysely<Database>,
  blobs: BlobStore,
  graceMs: number,
  now = Date.now(),
): Promise<{ deleted: number; bytes: number }> {
  if (!blobs.list || !blobs.delete) return { deleted: 0, bytes: 0 };
  // Listed before the rows are read: a blob named by a row written meanwhile is either in the
  // set or younger than the grace (a put refreshes an existing blob's time).
  const candidates: { sha256: string; size: number }[] = [];
  for await (const blob of blobs.list()) if (now - blob.writtenAt >= graceMs) candidates.push(blob);
  if (candidates.length === 0) return { deleted: 0, bytes: 0 };
  const named = await referencedBlobs(db);
  let deleted = 0;
  let bytes = 0;
  for (const blob of candidates) {
    if (named.has(blob.sha256)) continue;
    await blobs.delete(blob.sha256);
    deleted += 1;
    bytes += blob.size;
  }
  return { deleted, bytes };
}

/** SQLite: the log folded back into the file, and a VACUUM when much of the file is free. */
export async function compactSqlite(db: Kysely<Database>): Promise<boolean> {
  const pages = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
  const free = await sql<{ freelist_count: number }>`PRAGMA freelist_count`.execute(db);
  const total = Number(pages.rows[0]?.page_count ?? 0);
  const unused = Number(free.rows[0]?.freelist_count ?? 0);
  const vacuum = total > 0 && unused / total >= VACUUM_FREE_SHARE;
  if (vacuum) await sql`VACUUM`.execute(db);
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return vacuum;
}

export async function compact(
  deps: { db: Kysely<Database>; blobs: BlobStore; engine: Engine },
  settings: RetentionSettings,
): Promise<CompactionReport> {
  const episodesExpired =
    settings.keepRoundEpisodes === null
      ? 0
      : await expireRoundArtifacts(deps.db, settings.keepRoundEpisodes);
  const commissionerJobsDeleted =
    settings.commissionerJobsMs === null
      ? 0
      : await expireCommissionerJobs(deps.db, settings.commissionerJobsMs);
  const swept = await sweepBlobs(deps.db, deps.blobs, settings.blobGraceMs);
  // PostgreSQL's autovacuum does this work on its own.
  const vacuumed = deps.engine === "sqlite" ? await compactSqlite(deps.db) : false;
  return {
    episodesExpired,
    commissionerJobsDeleted,
    blobsDeleted: swept.deleted,
    bytesFreed: swept.bytes,
    vacuumed,
  };
}
