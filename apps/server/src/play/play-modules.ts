// Play modules: upload a tar.gz of static files for a coworld version (its owner or an admin),
// list and read them, and serve their files. Each file is a blob; one module per kind and
// coworld version, a new upload replacing the old one in one transaction.
import type { Kysely } from "kysely";

import { newId, type PlayModule, type PlayModuleKind, type QueryOf } from "@gauntlet/core";

import { ownsOrAdmin } from "../access/ownership.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { readTarGzFiles } from "../blobs/tarball.ts";
import { getCoworldRow } from "../coworlds/coworlds.ts";
import { nowIso } from "../shared/clock.ts";
import { forbidden, invalidInput, notFound } from "../shared/errors.ts";
import type { Database, PlayModuleFilesTable, PlayModulesTable } from "../store/schema.ts";
import { contentTypeOf } from "./content-types.ts";

const LIMITS = { maxFiles: 500, maxBytes: 50 * 1024 * 1024 };
const SAFE_PATH = /^[A-Za-z0-9._\-/]+$/;

/** A module's entry file, as served (made absolute by the routes). */
export const playModuleEntryPath = (module: { id: string; entry: string }) =>
  `/v2/play-modules/${module.id}/files/${module.entry}`;

function view(row: PlayModulesTable, files: PlayModuleFilesTable[]): PlayModule {
  return {
    id: row.id,
    coworld_id: row.coworld_id,
    kind: row.kind,
    entry: row.entry,
    entry_url: playModuleEntryPath(row),
    sha256: row.sha256,
    size_bytes: row.size_bytes,
    files: files.map((f) => ({
      path: f.path,
      size_bytes: f.size_bytes,
      content_type: f.content_type,
      sha256: f.sha256,
    })),
    uploader_user_id: row.uploader_user_id,
    created_at: row.created_at,
  };
}

async function views(db: Kysely<Database>, rows: PlayModulesTable[]): Promise<PlayModule[]> {
  if (rows.length === 0) return [];
  const files = await db
    .selectFrom("play_module_files")
    .selectAll()
    .where(
      "play_module_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("path")
    .execute();
  return rows.map((row) =>
    view(
      row,
      files.filter((f) => f.play_module_id === row.id),
    ),
  );
}

export async function uploadPlayModule(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  coworldId: string,
  input: QueryOf<"uploadPlayModule">,
  bytes: Uint8Array,
): Promise<PlayModule> {
  const coworld = await getCoworldRow(db, coworldId);
  if (!ownsOrAdmin(identity, coworld.owner_user_id))
    throw forbidden(
      `only the owner of coworld ${coworld.name} (or an admin) uploads its play modules`,
    );
  const read = await readTarGzFiles(bytes, LIMITS);
  if (!read.ok) throw invalidInput(["body"], read.error);
  const unsafe = unsafePath(read.files);
  if (unsafe) throw invalidInput(["body"], unsafe);
  if (!read.files.some((f) => f.path === input.entry))
    throw invalidInput(
      ["query", "entry"],
      `the archive has no file ${input.entry}`,
      "value_error",
      input.entry,
    );
  return storePlayModule(db, blobs, {
    coworldId: coworld.id,
    kind: input.kind,
    entry: input.entry,
    bundle: bytes,
    files: read.files,
    uploaderUserId: identity.userId,
  });
}

/** Why a file name cannot be served as a module's path; null when every one can. */
export function unsafePath(files: readonly { path: string }[]): string | null {
  const unsafe = files.find((f) => !SAFE_PATH.test(f.path));
  return unsafe
    ? `file names may hold only letters, digits, . _ - and /: ${JSON.stringify(unsafe.path)}`
    : null;
}

/**
 * Stores a coworld version's module of a kind from its checked files (each a blob; `bundle`, the
 * archive they came from, names it by its SHA-256), replacing the one it had in one transaction.
 */
export async function storePlayModule(
  db: Kysely<Database>,
  blobs: BlobStore,
  input: {
    coworldId: string;
    kind: PlayModuleKind;
    entry: string;
    bundle: Uint8Array;
    files: readonly { path: string; bytes: Uint8Array }[];
    uploaderUserId: string;
  },
): Promise<PlayModule> {
  const bundle = await blobs.put(input.bundle);
  const stored = await Promise.all(
    input.files.map(async (f) => ({ path: f.path, blob: await blobs.put(f.bytes) })),
  );
  const row: PlayModulesTable = {
    id: newId("playModule"),
    coworld_id: input.coworldId,
    kind: input.kind,
    entry: input.entry,
    sha256: bundle.sha256,
    size_bytes: input.bundle.byteLength,
    uploader_user_id: input.uploaderUserId,
    created_at: nowIso(),
  };
  const files: PlayModuleFilesTable[] = stored
    .map((f) => ({
      play_module_id: row.id,
      path: f.path,
      sha256: f.blob.sha256,
      size_bytes: f.blob.size,
      content_type: contentTypeOf(f.path),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
  await db.transaction().execute(async (trx) => {
    const old = await trx
      .selectFrom("play_modules")
      .select("id")
      .where("coworld_id", "=", input.coworldId)
      .where("kind", "=", input.kind)
      .execute();
    for (const o of old) {
      await trx.deleteFrom("play_module_files").where("play_module_id", "=", o.id).execute();
      await trx.deleteFrom("play_modules").where("id", "=", o.id).execute();
    }
    await trx.insertInto("play_modules").values(row).execute();
    for (const file of files) await trx.insertInto("play_module_files").values(file).execute();
  });
  return view(row, files);
}

export async function listPlayModules(
  db: Kysely<Database>,
  coworldId: string,
): Promise<PlayModule[]> {
  const coworld = await getCoworldRow(db, coworldId);
  const rows = await db
    .selectFrom("play_modules")
    .selectAll()
    .where("coworld_id", "=", coworld.id)
    .orderBy("kind")
    .execute();
  return views(db, rows);
}

export async function getPlayModuleRow(
  db: Kysely<Database>,
  id: string,
): Promise<PlayModulesTable> {
  const row = await db
    .selectFrom("play_modules")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("play module", id);
  return row;
}

export async function getPlayModule(db: Kysely<Database>, id: string): Promise<PlayModule> {
  const [one] = await views(db, [await getPlayModuleRow(db, id)]);
  if (!one) throw new Error("unreachable: one row gives one view");
  return one;
}

/** The module of a kind for a coworld version, if it has one. */
export async function playModuleOf(
  db: Kysely<Database>,
  coworldId: string,
  kind: PlayModuleKind,
): Promise<PlayModulesTable | undefined> {
  return db
    .selectFrom("play_modules")
    .selectAll()
    .where("coworld_id", "=", coworldId)
    .where("kind", "=", kind)
    .executeTakeFirst();
}

/** A file's bytes and type, looked up by its exact stored path (no file system is involved). */
export async function readPlayModuleFile(
  db: Kysely<Database>,
  blobs: BlobStore,
  id: string,
  path: string,
): Promise<{ bytes: Buffer; contentType: string }> {
  const file = await db
    .selectFrom("play_module_files")
    .selectAll()
    .where("play_module_id", "=", id)
    .where("path", "=", path)
    .executeTakeFirst();
  if (!file) throw notFound("play module file", path);
  const bytes = await blobs.get(file.sha256);
  if (!bytes) throw notFound("play module file", path);
  return { bytes, contentType: file.content_type };
}
