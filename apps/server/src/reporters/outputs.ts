// Reporter run outputs (docs/api.md, "Reporters"): the bytes go to the
// blob store by content hash, the record to reporter_outputs. Outputs are public.
import type { Kysely } from "kysely";

import { newId, PostReporterOutputQuery, type ReporterRunOutput } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { nowIso } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, ReporterOutputsTable } from "../store/schema.ts";
import { getRunRow } from "./runs.ts";

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  json: "application/json",
  text: "text/plain; charset=utf-8",
};

/** The media type an output is served with: the one given, else the one its type implies. */
export function mediaTypeOf(type: string, given: string | undefined): string {
  return given ?? MEDIA_TYPES[type.toLowerCase()] ?? "application/octet-stream";
}

/**
 * The media type a body was sent with, when it says more than "bytes": what the output is served
 * with unless the query names one. Only a well-formed type is kept, so no header can be smuggled.
 */
export function sentMediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const type = contentType.trim();
  if (/^application\/octet-stream\b/i.test(type)) return undefined;
  return PostReporterOutputQuery.shape.media_type.safeParse(type).data;
}

/** `url` is the output's path: the route makes it absolute with the server's public address. */
function toOutput(row: ReporterOutputsTable): ReporterRunOutput {
  return {
    id: row.id,
    reporter_id: row.reporter_id,
    reporter_run_id: row.reporter_run_id,
    name: row.name,
    type: row.type,
    size_bytes: Number(row.size_bytes),
    content_hash: row.content_hash,
    media_type: row.media_type,
    created_at: row.created_at,
    url: `/v2/reporters/outputs/${row.id}`,
  };
}

/** Posted with the reporter's key: the identity is the reporter, acting for its owner. */
export async function postOutput(
  db: Kysely<Database>,
  blobs: BlobStore,
  reporter: AuthenticatedIdentity,
  query: PostReporterOutputQuery,
  bytes: Uint8Array,
): Promise<ReporterRunOutput> {
  const run = await getRunRow(db, query.reporter_run_id);
  // Another reporter's run is not this key's to write to: it answers as if it did not exist.
  if (run.reporter_id !== reporter.subjectId) throw notFound("reporter run", query.reporter_run_id);
  const blob = await blobs.put(bytes);
  const row: ReporterOutputsTable = {
    id: newId("reporterOutput"),
    reporter_id: run.reporter_id,
    reporter_run_id: run.id,
    name: query.name,
    type: query.type,
    media_type: mediaTypeOf(query.type, query.media_type),
    size_bytes: blob.size,
    content_hash: blob.sha256,
    created_at: nowIso(),
  };
  await db.insertInto("reporter_outputs").values(row).execute();
  return toOutput(row);
}

/** The outputs of one run, oldest first. */
export async function runOutputs(
  db: Kysely<Database>,
  runId: string,
): Promise<ReporterRunOutput[]> {
  await getRunRow(db, runId);
  const rows = await db
    .selectFrom("reporter_outputs")
    .selectAll()
    .where("reporter_run_id", "=", runId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toOutput);
}

export async function reporterOutputs(
  db: Kysely<Database>,
  reporterId: string,
): Promise<ReporterRunOutput[]> {
  const rows = await db
    .selectFrom("reporter_outputs")
    .selectAll()
    .where("reporter_id", "=", reporterId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(500)
    .execute();
  return rows.map(toOutput);
}

export async function outputBytes(
  db: Kysely<Database>,
  blobs: BlobStore,
  outputId: string,
): Promise<{ row: ReporterOutputsTable; bytes: Buffer }> {
  const row = await db
    .selectFrom("reporter_outputs")
    .selectAll()
    .where("id", "=", outputId)
    .executeTakeFirst();
  const bytes = row ? await blobs.get(row.content_hash) : null;
  if (!row || !bytes) throw notFound("reporter output", outputId);
  return { row, bytes };
}
