// Bulk episode upload: start hands out a signed, expiring address; the client puts
// a DuckDB file there (the blob store keeps it); completion reads the file and copies its
// episodes into the store in one transaction, once per upload (a repeat answers the same).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { CompiledQuery, type Kysely, type Transaction } from "kysely";

import { newId, type BulkUploadCompleted, type BulkUploadStarted } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import {
  newSignedUpload,
  signedUpload,
  uploadAddress,
  type SignedAddress,
  type SignedPut,
} from "../blobs/signed-upload.ts";
import { EPISODE_CHANGES } from "../episodes/episodes.ts";
import { nowIso } from "../shared/clock.ts";
import { reserveValues } from "../shared/counters.ts";
import { conflict, notFound } from "../shared/errors.ts";
import type {
  BulkUploadsTable,
  Database,
  EpisodeParticipantsTable,
  EpisodeRequestsTable,
} from "../store/schema.ts";
import { invalidUpload, type UploadedEpisode } from "./duckdb-episodes.ts";
import { readEpisodeFileBoxed } from "./duckdb-sandbox.ts";

export const UPLOAD_URL_SECONDS = 3600;
const duckdbFileKey = (upload: { id: string; user_id: string }) =>
  `bulk-uploads/${upload.user_id}/${upload.id}.duckdb`;
/** Rows per insert statement: under SQLite's and PostgreSQL's bound-parameter limits. */
const EPISODE_BATCH = 1000;
const PARTICIPANT_BATCH = 4000;

export async function startBulkUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  now = new Date(),
): Promise<BulkUploadStarted> {
  const upload = newSignedUpload(identity.userId, duckdbFileKey, UPLOAD_URL_SECONDS, now);
  const row: BulkUploadsTable = {
    ...upload.columns,
    s3_key: upload.s3Key,
    status: "started",
    sha256: null,
    size_bytes: null,
    episodes_created: null,
    duckdb_uri: null,
    created_at: nowIso(),
    completed_at: null,
  };
  await db.insertInto("bulk_uploads").values(row).execute();
  const upload_url = await uploadAddress(blobs, upload, "/stats/episodes/bulk_upload/files");
  return { upload_url, s3_key: row.s3_key, upload_id: row.id, expires_at: row.expires_at };
}

/** The signed address of a PUT judged before its body is read: its upload, signature, expiry
 * and state (http/upload-handlers.ts). */
export async function checkBulkUploadAddress(
  db: Kysely<Database>,
  address: SignedAddress,
  now = new Date(),
) {
  const row = signedUpload(
    await db
      .selectFrom("bulk_uploads")
      .selectAll()
      .where("id", "=", address.uploadId)
      .executeTakeFirst(),
    address,
    now,
  );
  if (row.status === "completed")
    throw conflict(`bulk upload ${address.uploadId} is already completed`);
  return row;
}

/** The signed address's PUT: checks signature and expiry, keeps the bytes in the blob store. */
export async function putBulkUploadFile(
  db: Kysely<Database>,
  blobs: BlobStore,
  put: SignedPut,
  now = new Date(),
) {
  const { uploadId } = put;
  // Judged again with the bytes in hand: the upload may have been completed meanwhile.
  await checkBulkUploadAddress(db, put, now);
  const blob = await blobs.put(put.bytes);
  await db
    .updateTable("bulk_uploads")
    .set({ status: "uploaded", sha256: blob.sha256, size_bytes: blob.size })
    .where("id", "=", uploadId)
    .where("status", "!=", "completed")
    .execute();
  return { upload_id: uploadId, size_bytes: blob.size };
}

/** Every distinct policy version the episodes seat. */
const seatedVersions = (episodes: UploadedEpisode[]) => [
  ...new Set(episodes.flatMap((e) => e.participants.map((p) => p.policyVersionId))),
];

/**
 * The uploader credits only its own policy versions (an admin any): an unknown version and
 * another user's answer alike, so the refusal tells nothing about other users' versions.
 */
async function checkVersions(
  db: Kysely<Database>,
  uploader: { userId: string; admin: boolean },
  versions: string[],
): Promise<void> {
  const allowed = new Set<string>();
  for (let i = 0; i < versions.length; i += EPISODE_BATCH) {
    let q = db
      .selectFrom("policy_versions as pv")
      .innerJoin("policies as p", "p.id", "pv.policy_id")
      .select("pv.id")
      .where("pv.id", "in", versions.slice(i, i + EPISODE_BATCH));
    if (!uploader.admin) q = q.where("p.owner_user_id", "=", uploader.userId);
    for (const r of await q.execute()) allowed.add(r.id);
  }
  const refused = versions.find((v) => !allowed.has(v));
  if (refused)
    throw invalidUpload(
      `episode_agent_policies.policy_version_id ${refused} is not one of your policy versions: an upload credits only the uploader's own`,
    );
}

/**
 * The coworld each policy version plays: of its league memberships (league → game → coworld)
 * and of the episodes it was seated in (uploads aside). Used for files that do not name one.
 */
export async function coworldsOfVersions(
  db: Kysely<Database>,
  versions: string[],
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const add = (pv: string | null, coworld: string | null) => {
    if (!pv || !coworld) return;
    const set = out.get(pv) ?? new Set<string>();
    set.add(coworld);
    out.set(pv, set);
  };
  for (let i = 0; i < versions.length; i += EPISODE_BATCH) {
    const chunk = versions.slice(i, i + EPISODE_BATCH);
    for (const r of await db
      .selectFrom("league_policy_memberships as m")
      .innerJoin("leagues as l", "l.id", "m.league_id")
      .innerJoin("games as g", "g.id", "l.game_id")
      .select(["m.policy_version_id", "g.coworld_id"])
      .distinct()
      .where("m.policy_version_id", "in", chunk)
      .execute())
      add(r.policy_version_id, r.coworld_id);
    for (const r of await db
      .selectFrom("episode_participants as ep")
      .innerJoin("episode_requests as er", "er.id", "ep.episode_request_id")
      .select(["ep.policy_version_id", "er.coworld_id"])
      .distinct()
      .where("ep.policy_version_id", "in", chunk)
      .where("er.purpose", "!=", "upload")
      .execute())
      add(r.policy_version_id, r.coworld_id);
  }
  return out;
}

/**
 * Fills in each episode's coworld where the file does not name one (the hosted service's
 * tools do not): the one coworld its policy versions all play. Then checks every coworld exists.
 */
async function resolveCoworlds(db: Kysely<Database>, episodes: UploadedEpisode[]): Promise<void> {
  const unnamed = episodes.filter((e) => e.coworldId === null);
  if (unnamed.length) {
    const byVersion = await coworldsOfVersions(db, seatedVersions(unnamed));
    for (const e of unnamed) {
      const [firstSeat, ...otherSeats] = e.participants.map(
        (p) => byVersion.get(p.policyVersionId) ?? new Set<string>(),
      );
      const candidates = [...(firstSeat ?? [])].filter((c) => otherSeats.every((s) => s.has(c)));
      if (candidates.length !== 1)
        throw invalidUpload(
          `episode ${e.sourceId} names no coworld and its policy versions play ${candidates.length === 0 ? "no coworld in common" : `${candidates.length} coworlds in common`}: add episodes.coworld_id to the file`,
        );
      e.coworldId = candidates[0] ?? null;
    }
  }
  const coworlds = [...new Set(episodes.map((e) => e.coworldId ?? ""))];
  const known = new Set(
    (await db.selectFrom("coworlds").select("id").where("id", "in", coworlds).execute()).map(
      (r) => r.id,
    ),
  );
  const unknownCoworld = coworlds.find((c) => !known.has(c));
  if (unknownCoworld !== undefined)
    throw invalidUpload(`episodes.coworld_id ${unknownCoworld} is not a coworld on this server`);
}

export interface IngestRows {
  episodes: EpisodeRequestsTable[];
  participants: EpisodeParticipantsTable[];
}

/** The store rows of the uploaded episodes (change_seq filled in by the caller's reservation). */
export async function ingestRows(
  db: Kysely<Database>,
  userId: string,
  uploadId: string,
  episodes: UploadedEpisode[],
): Promise<IngestRows> {
  const versions = seatedVersions(episodes);
  const names = new Map<string, string>();
  for (let i = 0; i < versions.length; i += EPISODE_BATCH) {
    const rows = await db
      .selectFrom("policy_versions as pv")
      .innerJoin("policies as p", "p.id", "pv.policy_id")
      .select(["pv.id", "pv.version", "p.name"])
      .where("pv.id", "in", versions.slice(i, i + EPISODE_BATCH))
      .execute();
    for (const r of rows) names.set(r.id, `${r.name} v${r.version}`);
  }
  const now = nowIso();
  const out: IngestRows = { episodes: [], participants: [] };
  for (const e of episodes) {
    const id = newId("episodeRequest");
    const at =
      e.createdAt && !Number.isNaN(Date.parse(e.createdAt))
        ? new Date(Date.parse(e.createdAt)).toISOString()
        : now;
    out.episodes.push({
      id,
      requester_user_id: userId,
      purpose: "upload",
      coworld_id: e.coworldId ?? "",
      league_id: null,
      division_id: null,
      round_id: null,
      pool_id: null,
      experience_request_id: null,
      bulk_upload_id: uploadId,
      artifacts_expired_at: null,
      cpu: null,
      game_config: "{}",
      seed: 0,
      max_steps: null,
      status: "completed",
      job_id: null,
      error_type: null,
      error: null,
      failed_policy_index: null,
      // What the file says is kept as it says it (episode-stats serves it under `upload`);
      // `policy_agents` and `policy_metrics` are per seat, in seat order.
      results: JSON.stringify({
        source_episode_id: e.sourceId,
        tags: e.tags,
        replay_url: e.replayUrl,
        thumbnail_url: e.thumbnailUrl,
        primary_policy_version_id: e.primaryPolicyVersionId,
        attributes: e.attributes,
        eval_task_id: e.evalTaskId,
        scores: e.participants.map((p) => p.score),
        policy_agents: e.participants.map((p) => p.agents),
        policy_metrics: e.participants.map((p) => p.metrics),
      }),
      scores: JSON.stringify(e.participants.map((p) => p.score)),
      change_seq: 0,
      created_at: at,
      updated_at: now,
    });
    e.participants.forEach((p, position) =>
      out.participants.push({
        episode_request_id: id,
        position,
        policy_version_id: p.policyVersionId,
        bundled_player_id: null,
        player_id: null,
        display_name: names.get(p.policyVersionId) ?? p.policyVersionId,
        human_relay: null,
      }),
    );
  }
  return out;
}

/**
 * Inserts `rows` in batches of `size`. Kysely builds the statement of the first full batch; every
 * later full batch reuses its SQL text with its own parameters (row by row, column by column, as
 * Kysely orders them), so the engine prepares it once and no query is rebuilt per batch.
 */
async function insertBatches<R extends object>(
  trx: Transaction<Database>,
  rows: readonly R[],
  size: number,
  build: (batch: R[]) => CompiledQuery,
): Promise<void> {
  const columns = rows[0] ? (Object.keys(rows[0]) as (keyof R)[]) : [];
  let fullBatchSql: string | undefined;
  for (let i = 0; i < rows.length; i += size) {
    const batch = rows.slice(i, i + size);
    if (batch.length === size && fullBatchSql !== undefined) {
      const parameters: unknown[] = [];
      for (const row of batch) for (const column of columns) parameters.push(row[column]);
      await trx.executeQuery(CompiledQuery.raw(fullBatchSql, parameters));
      continue;
    }
    const compiled = build(batch);
    if (batch.length === size) fullBatchSql = compiled.sql;
    await trx.executeQuery(compiled);
  }
}

/** Inserts the rows in batches, in the caller's transaction. */
export async function insertRows(trx: Transaction<Database>, rows: IngestRows): Promise<void> {
  const first = rows.episodes.length
    ? await reserveValues(trx, EPISODE_CHANGES, rows.episodes.length)
    : 0;
  rows.episodes.forEach((e, i) => (e.change_seq = first + i));
  await insertBatches(trx, rows.episodes, EPISODE_BATCH, (batch) =>
    trx.insertInto("episode_requests").values(batch).compile(),
  );
  await insertBatches(trx, rows.participants, PARTICIPANT_BATCH, (batch) =>
    trx.insertInto("episode_participants").values(batch).compile(),
  );
}

/** A file PUT to a presigned address: kept content-addressed like the server's own uploads. */
async function takePresignedUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  row: BulkUploadsTable,
): Promise<void> {
  const bytes = await blobs.readUpload?.(row.s3_key);
  if (!bytes) return;
  const blob = await blobs.put(bytes);
  await db
    .updateTable("bulk_uploads")
    .set({ status: "uploaded", sha256: blob.sha256, size_bytes: blob.size })
    .where("id", "=", row.id)
    .where("status", "=", "started")
    .execute();
}

export async function completeBulkUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  uploadId: string,
): Promise<BulkUploadCompleted> {
  const row = await db
    .selectFrom("bulk_uploads")
    .selectAll()
    .where("id", "=", uploadId)
    .executeTakeFirst();
  if (!row || (row.user_id !== identity.userId && !actsAsAdmin(identity)))
    throw notFound("bulk upload", uploadId);
  if (row.status === "completed")
    return { episodes_created: row.episodes_created ?? 0, duckdb_s3_uri: row.duckdb_uri ?? "" };
  if (row.status === "started" && blobs.readUpload) await takePresignedUpload(db, blobs, row);
  const uploaded = await db
    .selectFrom("bulk_uploads")
    .select(["status", "sha256"])
    .where("id", "=", uploadId)
    .executeTakeFirstOrThrow();
  if (uploaded.status === "completed") return completeBulkUpload(db, blobs, identity, uploadId);
  if (uploaded.status !== "uploaded" || !uploaded.sha256)
    throw conflict(
      `bulk upload ${uploadId} has no file yet: PUT the DuckDB file to its upload_url first`,
      "upload_incomplete",
    );
  const bytes = await blobs.get(uploaded.sha256);
  if (!bytes) throw conflict(`the file of bulk upload ${uploadId} is missing from the blob store`);
  const dir = await mkdtemp(join(tmpdir(), "gauntlet-bulk-"));
  let episodes: UploadedEpisode[];
  try {
    const path = join(dir, "upload.duckdb");
    await writeFile(path, bytes);
    episodes = await readEpisodeFileBoxed(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await checkVersions(
    db,
    { userId: row.user_id, admin: row.user_id === identity.userId && actsAsAdmin(identity) },
    seatedVersions(episodes),
  );
  await resolveCoworlds(db, episodes);
  const rows = await ingestRows(db, row.user_id, uploadId, episodes);
  const uri = blobs.uri(uploaded.sha256);
  const done = await db.transaction().execute(async (trx) => {
    // The claim comes first: a second completion waits here, then finds nothing to claim.
    const claimed = await trx
      .updateTable("bulk_uploads")
      .set({
        status: "completed",
        episodes_created: rows.episodes.length,
        duckdb_uri: uri,
        completed_at: nowIso(),
      })
      .where("id", "=", uploadId)
      .where("status", "=", "uploaded")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    await insertRows(trx, rows);
    return true;
  });
  if (!done) {
    const again = await db
      .selectFrom("bulk_uploads")
      .selectAll()
      .where("id", "=", uploadId)
      .executeTakeFirstOrThrow();
    return { episodes_created: again.episodes_created ?? 0, duckdb_s3_uri: again.duckdb_uri ?? "" };
  }
  return { episodes_created: rows.episodes.length, duckdb_s3_uri: uri };
}
