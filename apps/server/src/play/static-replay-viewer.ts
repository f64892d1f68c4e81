// A coworld version's static replay viewer: the directory its manifest names in
// `game.replay_viewer.bundle` (coworld's STATIC_REPLAY_VIEWERS contract), uploaded by the owner
// as a zip through `/v2/coworlds/replay-viewer-bundles/upload…` and named `sha256:<hash>`. When
// the manifest names one it is the episode's viewer — preferred over an uploaded replay_viewer
// module, as the hosted service prefers it — installed as the version's replay_viewer module on
// first use and served like every module (sandboxed in an opaque origin). Such a viewer reads
// the replay's address from `?replay=`, not from the fragment our own viewers read.
import type { Kysely } from "kysely";

import type { BlobStore } from "../blobs/blob-store.ts";
import { DEFAULT_TAR_BUDGETS } from "../blobs/tar-inspect.ts";
import { readTarGzFiles, zipToTarGz } from "../blobs/tarball.ts";
import { getCoworldRow } from "../coworlds/coworlds.ts";
import { parseJson } from "../shared/clock.ts";
import type { Database, PlayModulesTable } from "../store/schema.ts";
import { playModuleOf, storePlayModule, unsafePath } from "./play-modules.ts";

/** What a static viewer may unpack to (the contract allows more; this server keeps files in memory to store them). */
export const STATIC_VIEWER_LIMITS = { maxFiles: 4096, maxBytes: 64 * 1024 * 1024 };
const ENTRY = "index.html";
const NAME = /^sha256:([0-9a-f]{64})$/;

/** The replay viewer of a coworld version, and whether it is a static one (`?replay=`). */
export interface ReplayViewer {
  readonly module: Pick<PlayModulesTable, "id" | "entry">;
  readonly replayInQuery: boolean;
}

/** The SHA-256 the manifest's `game.replay_viewer.bundle` names; null when it names none. */
export function staticViewerHash(manifestText: string): string | null {
  const manifest = parseJson<{ game?: { replay_viewer?: { bundle?: unknown } } }>(manifestText);
  const bundle = manifest.game?.replay_viewer?.bundle;
  return typeof bundle === "string" ? (NAME.exec(bundle)?.[1] ?? null) : null;
}

/**
 * The viewer an episode of the coworld version plays in: its static viewer when the manifest
 * names one its owner uploaded (installed now if it is not yet), else its replay_viewer module.
 * Throws with the reason when the named bundle cannot be used (not a zip, no index.html, …).
 */
export async function replayViewerOf(
  db: Kysely<Database>,
  blobs: BlobStore,
  coworldId: string,
): Promise<ReplayViewer | undefined> {
  const coworld = await getCoworldRow(db, coworldId);
  const installed = await playModuleOf(db, coworld.id, "replay_viewer");
  const hash = staticViewerHash(coworld.manifest);
  if (hash === null) return installed && { module: installed, replayInQuery: false };
  if (installed?.sha256 === hash) return { module: installed, replayInQuery: true };
  // Only a bundle the owner uploaded: a manifest cannot name another user's bytes.
  const uploaded = await db
    .selectFrom("content_uploads")
    .select("id")
    .where("user_id", "=", coworld.owner_user_id)
    .where("purpose", "=", "replay_viewer")
    .where("content_hash", "=", hash)
    .where("completed_at", "is not", null)
    .executeTakeFirst();
  const zip = uploaded ? await blobs.get(hash) : null;
  if (!zip) return installed && { module: installed, replayInQuery: false };
  const refusal = refused.get(hash);
  if (refusal !== undefined) throw new StaticViewerError(refusal);
  // One unpacking per version at a time, whoever opens its replays meanwhile.
  let install = installing.get(coworld.id);
  if (!install) {
    install = installStaticViewer(db, blobs, coworld.id, coworld.owner_user_id, zip).finally(() =>
      installing.delete(coworld.id),
    );
    installing.set(coworld.id, install);
  }
  try {
    return { module: await install, replayInQuery: true };
  } catch (error) {
    // A refusal of the bytes is kept; running out of time on a busy machine is not.
    if (error instanceof StaticViewerError && !/time budget/.test(error.why))
      remember(hash, error.why);
    throw error;
  }
}

const installing = new Map<string, Promise<Pick<PlayModulesTable, "id" | "entry">>>();
/** Bundles that could not be used, and why: the same bytes are not unpacked again on every replay opened. */
const refused = new Map<string, string>();
const REFUSALS_KEPT = 1000;

function remember(hash: string, why: string): void {
  if (refused.size >= REFUSALS_KEPT) {
    const oldest = refused.keys().next();
    if (!oldest.done) refused.delete(oldest.value);
  }
  refused.set(hash, why);
}

async function installStaticViewer(
  db: Kysely<Database>,
  blobs: BlobStore,
  coworldId: string,
  ownerUserId: string,
  zip: Buffer,
) {
  const { maxFiles, maxBytes } = STATIC_VIEWER_LIMITS;
  const repacked = await zipToTarGz(zip, {
    ...DEFAULT_TAR_BUDGETS,
    maxBytes,
    // Files and folders alike: a directory past it is refused before anything unpacks.
    maxEntries: maxFiles,
  });
  if (!repacked.ok) throw new StaticViewerError(repacked.error);
  const read = await readTarGzFiles(repacked.tarGz, STATIC_VIEWER_LIMITS);
  if (!read.ok) throw new StaticViewerError(read.error);
  const unsafe = unsafePath(read.files);
  if (unsafe) throw new StaticViewerError(unsafe);
  if (!read.files.some((f) => f.path === ENTRY))
    throw new StaticViewerError(`it has no ${ENTRY} at its root`);
  return storePlayModule(db, blobs, {
    coworldId,
    kind: "replay_viewer",
    entry: ENTRY,
    bundle: zip,
    files: read.files,
    uploaderUserId: ownerUserId,
  });
}

/** The manifest's static viewer bundle cannot be served; the message says why. */
export class StaticViewerError extends Error {
  readonly why: string;
  constructor(why: string) {
    super(`the coworld's static replay viewer bundle cannot be used: ${why}`);
    this.why = why;
  }
}
