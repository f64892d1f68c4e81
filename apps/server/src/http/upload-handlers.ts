// The handlers' side of a signed upload (blobs/signed-upload.ts): starting one answers its
// address made absolute, and the address's PUT is read from the request and handed to the domain.
import type { Kysely } from "kysely";

import type { BlobStore } from "../blobs/blob-store.ts";
import type { SignedPut } from "../blobs/signed-upload.ts";
import type { Database } from "../store/schema.ts";
import type { AppContext } from "./handler.ts";
import { absoluteTo } from "./public-address.ts";

/** A started upload with its address made absolute; none (the bytes are stored already) stays none. */
export function withAbsoluteUploadUrl<T extends { upload_url: string | null }>(
  base: string,
  started: T,
): T {
  const { upload_url } = started;
  return { ...started, upload_url: upload_url === null ? null : absoluteTo(base, upload_url) };
}

/** The handler of a signed address's PUT (`…/{upload_id}?expires=…&signature=…`, the bytes as body). */
export function signedPutHandler<R>(
  put: (db: Kysely<Database>, blobs: BlobStore, put: SignedPut) => Promise<R>,
) {
  return async (request: {
    params: { upload_id: string };
    query: { expires: number; signature: string };
    body: Uint8Array;
    app: AppContext;
  }): Promise<R> =>
    put(request.app.store.db, request.app.blobs, {
      uploadId: request.params.upload_id,
      expires: request.query.expires,
      signature: request.query.signature,
      bytes: request.body,
    });
}
