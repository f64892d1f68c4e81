// A signed upload address: `…?expires=<unix seconds>&signature=<HMAC>` over the upload's id and
// expiry with a key kept with the upload row, so the address alone authorises one PUT of that
// upload until it expires (bulk episode files, cogames policy zips, reporter and replay-viewer
// bundles).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

import { forbidden } from "../shared/errors.ts";
import type { BlobStore } from "./blob-store.ts";

function signUpload(key: string, uploadId: string, expires: number): string {
  return createHmac("sha256", key).update(`PUT\n${uploadId}\n${expires}`).digest("base64url");
}

/** A new signed upload: the columns its row starts with, where S3 keeps it, and its expiry. */
export interface NewSignedUpload {
  columns: { id: string; user_id: string; signing_key: string; expires_at: string };
  /** The key a store clients can reach (S3) keeps the client's PUT under. */
  s3Key: string;
  /** Unix seconds, as the address carries it. */
  expires: number;
  /** How long the address holds. */
  seconds: number;
}

/**
 * A new upload of `userId`'s whose address holds for `seconds` from `now`; `s3Key` names where
 * S3 keeps it.
 */
export function newSignedUpload(
  userId: string,
  s3Key: (upload: { id: string; user_id: string }) => string,
  seconds: number,
  now: Date,
): NewSignedUpload {
  const expires = Math.floor(now.getTime() / 1000) + seconds;
  const columns = {
    id: randomUUID(),
    user_id: userId,
    signing_key: randomBytes(32).toString("base64url"),
    expires_at: new Date(expires * 1000).toISOString(),
  };
  return { columns, s3Key: s3Key(columns), expires, seconds };
}

/**
 * Where the client PUTs an upload's bytes. A store clients can reach (S3) signs the address
 * itself, so the bytes go straight to the bucket; else it is our path, the upload's id under
 * `folder` with the signed query (a path: the route makes it absolute).
 */
export async function uploadAddress(
  blobs: BlobStore,
  upload: NewSignedUpload,
  folder: string,
): Promise<string> {
  if (blobs.presignPut) return blobs.presignPut(upload.s3Key, upload.seconds);
  const { id, signing_key } = upload.columns;
  const signature = signUpload(signing_key, id, upload.expires);
  return `${folder}/${id}?expires=${upload.expires}&signature=${signature}`;
}

/** A PUT to a signed address: the upload it names, the address's expiry and signature, the bytes. */
export interface SignedPut {
  uploadId: string;
  expires: number;
  signature: string;
  bytes: Uint8Array;
}

/**
 * The upload an address names, once its signature and expiry hold: 403 for an unknown upload
 * (answered like a wrong signature), a signature that differs, or an address that expired.
 */
/** A signed address as its request names it, before the body is read. */
export type SignedAddress = Pick<SignedPut, "uploadId" | "expires" | "signature">;

export function signedUpload<T extends { signing_key: string }>(
  row: T | undefined,
  put: Pick<SignedPut, "uploadId" | "expires" | "signature">,
  now: Date,
): T {
  const expected = row ? Buffer.from(signUpload(row.signing_key, put.uploadId, put.expires)) : null;
  const given = Buffer.from(put.signature);
  if (!row || !expected || expected.length !== given.length || !timingSafeEqual(expected, given))
    throw forbidden("The upload address's signature does not match.");
  if (put.expires * 1000 < now.getTime())
    throw forbidden("The upload address has expired: start a new upload.");
  return row;
}
