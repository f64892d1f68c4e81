// A reporter's bundle versions (coworld's `/v2/reporters/upload` and `…/complete`): numbered
// from 1 per owner and reporter name; the same bytes and attributes are the same version.
import { randomUUID } from "node:crypto";

import type { Kysely } from "kysely";

import type { BodyOf } from "@gauntlet/core";

import { actsAsUser, type AuthenticatedIdentity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, forbidden, notFound } from "../shared/errors.ts";
import type { Database, ReporterVersionsTable } from "../store/schema.ts";
import { callerUploaded, markCompleted, startContentUpload } from "./content-uploads.ts";

/** JSON with object keys sorted at every depth: equal attributes give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(",")}}`;
  return value === undefined ? "null" : JSON.stringify(value);
}

const toVersion = (row: ReporterVersionsTable) => ({
  id: row.id,
  name: row.name,
  version: row.version,
  content_hash: row.content_hash,
});

/** Only the person who registered a reporter of that name uploads its bundles (an admin too, under their own name). */
async function ownReporterName(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  name: string,
): Promise<void> {
  if (!actsAsUser(identity)) throw forbidden("Reporter bundles are uploaded with a user token.");
  const row = await db
    .selectFrom("reporters")
    .select("id")
    .where("user_id", "=", identity.userId)
    .where("name", "=", name)
    .executeTakeFirst();
  if (!row) throw notFound("your reporter named", JSON.stringify(name));
}

async function existingVersion(
  db: Kysely<Database>,
  userId: string,
  name: string,
  contentHash: string,
  attributes: string,
) {
  return db
    .selectFrom("reporter_versions")
    .selectAll()
    .where("user_id", "=", userId)
    .where("name", "=", name)
    .where("content_hash", "=", contentHash)
    .where("attributes", "=", attributes)
    .executeTakeFirst();
}

export async function requestReporterUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  input: BodyOf<"requestReporterUpload">,
) {
  await ownReporterName(db, identity, input.name);
  const existing = await existingVersion(
    db,
    identity.userId,
    input.name,
    input.content_hash,
    canonicalJson(input.attributes),
  );
  if (existing) return { upload_url: null, existing_version: toVersion(existing) };
  const upload_url = await startContentUpload(
    db,
    blobs,
    identity,
    "reporter",
    input.content_hash,
    input.size_bytes,
  );
  return { upload_url, existing_version: null };
}

function isUniqueViolation(error: unknown): boolean {
  const text =
    error instanceof Error
      ? `${error.message} ${"code" in error ? String(error.code) : ""}`
      : String(error);
  return /UNIQUE|23505|duplicate key/i.test(text);
}

export async function completeReporterUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  input: BodyOf<"completeReporterUpload">,
) {
  await ownReporterName(db, identity, input.name);
  const attributes = canonicalJson(input.attributes);
  const upload = await callerUploaded(db, blobs, identity, "reporter", input.content_hash);
  if (!upload)
    throw conflict(
      `no bundle with SHA-256 ${input.content_hash} was uploaded: PUT it to the address /v2/reporters/upload answered first`,
    );
  // Two completions at once may pick the same next number: the loser retries (or finds the
  // version the winner made of the same bytes).
  for (let attempt = 0; ; attempt++) {
    const same = await existingVersion(
      db,
      identity.userId,
      input.name,
      input.content_hash,
      attributes,
    );
    if (same) return { version: toVersion(same) };
    const last = await db
      .selectFrom("reporter_versions")
      .select((eb) => eb.fn.max("version").as("v"))
      .where("user_id", "=", identity.userId)
      .where("name", "=", input.name)
      .executeTakeFirst();
    const row: ReporterVersionsTable = {
      id: randomUUID(),
      user_id: identity.userId,
      name: input.name,
      version: Number(last?.v ?? 0) + 1,
      content_hash: input.content_hash,
      size_bytes: upload.size_bytes,
      attributes,
      created_at: nowIso(),
    };
    try {
      await db.insertInto("reporter_versions").values(row).execute();
    } catch (error) {
      if (attempt < 5 && isUniqueViolation(error)) continue;
      throw error;
    }
    await markCompleted(db, upload.id);
    return { version: toVersion(row) };
  }
}
