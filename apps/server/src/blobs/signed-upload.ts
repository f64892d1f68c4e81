// A signed upload address: `…?expires=<unix seconds>&signature=<HMAC>` over the upload's id and
// expiry with a key kept with the upload row, so the address alone authorises one PUT of that
// upload until it expires (bulk episode files, reporter and replay-viewer bundles).
import { createHmac, timingSafeEqual } from "node:crypto";

import { forbidden } from "../shared/errors.ts";

export function signUpload(key: string, uploadId: string, expires: number): string {
  return createHmac("sha256", key).update(`PUT\n${uploadId}\n${expires}`).digest("base64url");
}

/**
 * The upload an address names, once its signature and expiry hold: 403 for an unknown upload
 * (answered like a wrong signature), a signature that differs, or an address that expired.
 */
export function signedUpload<T extends { signing_key: string }>(
  row: T | undefined,
  uploadId: string,
  expires: number,
  signature: string,
  now: Date,
): T {
  const expected = row ? Buffer.from(signUpload(row.signing_key, uploadId, expires)) : null;
  const given = Buffer.from(signature);
  if (!row || !expected || expected.length !== given.length || !timingSafeEqual(expected, given))
    throw forbidden("The upload address's signature does not match.");
  if (expires * 1000 < now.getTime())
    throw forbidden("The upload address has expired: start a new upload.");
  return row;
}
