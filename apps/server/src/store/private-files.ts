// The data directory holds the database, the secret key, the first admin's password and every
// uploaded bundle: it is the server's alone. New directories are made 0700 and files 0600; an
// install made before that is tightened when the server starts (`tightenDataDir`).
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
} from "node:fs";
import { join } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The files of the data directory that are the server's own (the SQLite companions included). */
const PRIVATE_FILES = [
  "gauntlet.sqlite",
  "gauntlet.sqlite-wal",
  "gauntlet.sqlite-shm",
  "gauntlet.sqlite-journal",
  "secret.key",
  "first-admin.txt",
  "embedded-runner.token",
];

/** Makes `dir` (and any missing parent) owner-only; an existing one is tightened. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates `file` empty and owner-only if it does not exist, and tightens it if it does: SQLite
 * then creates its -wal and -shm files with the database file's permissions.
 */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, "a", PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

function tightenTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(path);
    else if (entry.isFile()) chmodSync(path, PRIVATE_FILE_MODE);
  }
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Tightens an existing data directory: itself 0700, its own files 0600, and the blob directory
 * tree (0700 directories, 0600 files). The blob tree is walked only while its root is not yet
 * owner-only — its root is tightened last, so an interrupted walk is resumed on the next start.
 */
export function tightenDataDir(dataDir: string): void {
  ensurePrivateDir(dataDir);
  for (const name of PRIVATE_FILES) {
    const file = join(dataDir, name);
    if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
  }
  const blobs = join(dataDir, "blobs");
  if (existsSync(blobs) && (statSync(blobs).mode & 0o777) !== PRIVATE_DIR_MODE) tightenTree(blobs);
}
