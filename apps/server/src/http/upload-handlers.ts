// The handlers' side of a signed upload (blobs/signed-upload.ts): starting one answers its
// address made absolute, and the address's PUT is read from the request and handed to the domain.
import type { Kysely } from "kysely";

import type { BlobStore } from "../blobs/blob-store.ts";
import type { SignedAddress, SignedPut } from "../blobs/signed-upload.ts";
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

/** A check that runs before a handler's body is read (http/register-operations.ts): it throws
 * the error to answer instead of reading the body. */
export interface BeforeBody {
  /** `inputs`: the request's path parameters and query, validated by its operation's schemas. */
  beforeBody?: (inputs: { params: unknown; query: unknown }, ctx: AppContext) => Promise<void>;
}

/**
 * The handler of a signed address's PUT (`…/{upload_id}?expires=…&signature=…`, the bytes as
 * body). `check` judges the address (its upload, signature, expiry and state) before the body
 * is read: these routes take no token and bodies of up to 256 MiB, so an address that is no
 * upload's was read whole into memory first (the attack: 12 made-up PUTs held 3 GB and
 * /healthz at a second). `put` checks it again with the bytes in hand.
 */
export function signedPutHandler<R>(
  put: (db: Kysely<Database>, blobs: BlobStore, put: SignedPut) => Promise<R>,
  check: (db: Kysely<Database>, address: SignedAddress, now: Date) => Promise<unknown>,
) {
  const handler = async (request: {
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
  const beforeBody: BeforeBody["beforeBody"] = async (inputs, ctx) => {
    const { upload_id } = inputs.params as { upload_id: string };
    const { expires, signature } = inputs.query as { expires: number; signature: string };
    await check(ctx.store.db, { uploadId: upload_id, expires, signature }, new Date());
  };
  return Object.assign(handler, { beforeBody });
}
