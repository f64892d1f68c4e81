// The signed address a bundle upload PUTs its bytes to (coworld's upload client: reporter and
// replay viewer bundles). Content-addressed: the caller announces the SHA-256 and size, and
// only those bytes are taken, so whoever holds the address can store nothing else.
import { createHash } from "node:crypto";

import type { Kysely } from "kysely";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import {
  newSignedUpload,
  signedUpload,
  uploadAddress,
  type SignedAddress,
  type SignedPut,
} from "../blobs/signed-upload.ts";
import { nowIso } from "../shared/clock.ts";
import { invalidInput } from "../shared/errors.ts";
import type { ContentUploadsTable, Database } from "../store/schema.ts";

export const CONTENT_UPLOAD_SECONDS = 3600;

type Purpose = ContentUploadsTable["purpose"];

/** Where an S3-compatible store keeps a client's PUT before it is checked. */
const s3Key = (row: { id: string; user_id: string }) => `bundle-uploads/${row.user_id}/${row.id}`;

/** A new upload of `contentHash` for the caller: the address to PUT the bytes to. */
export async function startContentUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  purpose: Purpose,
  contentHash: string,
  sizeBytes: number,
  now = new Date(),
): Promise<string> {
  const upload = newSignedUpload(identity.userId, s3Key, CONTENT_UPLOAD_SECONDS, now);
  const row: ContentUploadsTable = {
    ...upload.columns,
    purpose,
    content_hash: contentHash,
    size_bytes: sizeBytes,
    uploaded_at: null,
    completed_at: null,
    created_at: nowIso(),
  };
  await db.insertInto("content_uploads").values(row).execute();
  return uploadAddress(blobs, upload, "/v2/content-uploads");
}

function checkBytes(row: ContentUploadsTable, bytes: Uint8Array): void {
  const hash = createHash("sha256").update(bytes).digest("hex");
  if (hash !== row.content_hash || bytes.length !== row.size_bytes)
    throw invalidInput(
      ["body"],
      `the bytes are not those announced: SHA-256 ${hash} of ${bytes.length} bytes, expected ${row.content_hash} of ${row.size_bytes}`,
    );
}

/** The signed address of a PUT judged before its body is read: its upload, signature, expiry
 * and state (http/upload-handlers.ts). */
export async function checkContentUploadAddress(
  db: Kysely<Database>,
  address: SignedAddress,
  now = new Date(),
) {
  const row = signedUpload(
    await db
      .selectFrom("content_uploads")
      .selectAll()
      .where("id", "=", address.uploadId)
      .executeTakeFirst(),
    address,
    now,
  );
  return row;
}

/** The signed address's PUT: checks signature, expiry and the bytes, keeps them as a blob. */
export async function putContentUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  put: SignedPut,
  now = new Date(),
) {
  const { uploadId, bytes } = put;
  // Judged again with the bytes in hand: the upload may have changed meanwhile.
  const row = await checkContentUploadAddress(db, put, now);
  checkBytes(row, bytes);
  await blobs.put(bytes);
  await db
    .updateTable("content_uploads")
    .set({ uploaded_at: nowIso() })
    .where("id", "=", uploadId)
    .execute();
  return { upload_id: uploadId, size_bytes: bytes.length };
}

/**
 * Whether the caller uploaded bytes with this hash (and size, when given) for this purpose: an
 * upload of their own, PUT here or (S3) to the bucket, and checked. Someone else's upload of
 * the same bytes does not count, so completing tells nothing about other users' bundles.
 */
export async function callerUploaded(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  purpose: Purpose,
  contentHash: string,
  sizeBytes?: number,
): Promise<ContentUploadsTable | null> {
  let q = db
    .selectFrom("content_uploads")
    .selectAll()
    .where("user_id", "=", identity.userId)
    .where("purpose", "=", purpose)
    .where("content_hash", "=", contentHash);
  if (sizeBytes !== undefined) q = q.where("size_bytes", "=", sizeBytes);
  const rows = await q.orderBy("created_at", "desc").execute();
  const done = rows.find((r) => r.uploaded_at !== null);
  if (done) return done;
  if (!blobs.readUpload) return null;
  for (const row of rows) {
    const bytes = await blobs.readUpload(s3Key(row));
    if (!bytes) continue;
    checkBytes(row, bytes);
    await blobs.put(bytes);
    await db
      .updateTable("content_uploads")
      .set({ uploaded_at: nowIso() })
      .where("id", "=", row.id)
      .execute();
    return row;
  }
  return null;
}

export async function markCompleted(db: Kysely<Database>, uploadId: string): Promise<void> {
  await db
    .updateTable("content_uploads")
    .set({ completed_at: nowIso() })
    .where("id", "=", uploadId)
    .where("completed_at", "is", null)
    .execute();
}
