// A coworld's replay viewer bundle (coworld's `/v2/coworlds/replay-viewer-bundles/upload…`):
// a zip kept as a blob, named `sha256:<hash>` in the manifest's `game.replay_viewer.bundle`.
import type { Kysely } from "kysely";

import type { BodyOf } from "@gauntlet/core";

import { actsAsUser, type AuthenticatedIdentity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { conflict, forbidden } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { callerUploaded, markCompleted, startContentUpload } from "./content-uploads.ts";

type Input = BodyOf<"requestReplayViewerBundleUpload">;

const bundleName = (contentHash: string) => `sha256:${contentHash}`;

function personOnly(identity: AuthenticatedIdentity): void {
  if (!actsAsUser(identity))
    throw forbidden("Replay viewer bundles are uploaded with a user token.");
}

export async function requestReplayViewerBundleUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  input: Input,
) {
  personOnly(identity);
  // Only the caller's own completed bundle skips the upload: whether someone else has these
  // bytes is not told.
  const mine = await db
    .selectFrom("content_uploads")
    .select("id")
    .where("user_id", "=", identity.userId)
    .where("purpose", "=", "replay_viewer")
    .where("content_hash", "=", input.content_hash)
    .where("size_bytes", "=", input.size_bytes)
    .where("completed_at", "is not", null)
    .executeTakeFirst();
  if (mine && (await blobs.has(input.content_hash)))
    return { bundle: bundleName(input.content_hash), upload_url: null };
  const upload_url = await startContentUpload(
    db,
    blobs,
    identity,
    "replay_viewer",
    input.content_hash,
    input.size_bytes,
  );
  return { bundle: bundleName(input.content_hash), upload_url };
}

export async function completeReplayViewerBundleUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  input: Input,
) {
  personOnly(identity);
  const upload = await callerUploaded(
    db,
    blobs,
    identity,
    "replay_viewer",
    input.content_hash,
    input.size_bytes,
  );
  if (!upload)
    throw conflict(
      `no bundle with SHA-256 ${input.content_hash} of ${input.size_bytes} bytes was uploaded: PUT it to the address …/replay-viewer-bundles/upload answered first`,
    );
  await markCompleted(db, upload.id);
  return { bundle: bundleName(input.content_hash) };
}
