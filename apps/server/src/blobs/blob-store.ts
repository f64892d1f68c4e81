// The blob store (docs/architecture.md, "Storage"): content-addressed bytes (replays, logs,
// bundles). A directory by default; the interface is what an S3-compatible store would implement.
import { createHash, randomBytes } from "node:crypto";
import {
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";

import { bestEffort, unlessGone } from "@gauntlet/core";

import { insufficientStorage } from "../shared/errors.ts";

/** No space (or quota) left on the device. */
const FULL = new Set(["ENOSPC", "EDQUOT"]);

export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface BlobStore {
  put(bytes: Uint8Array): Promise<StoredBlob>;
  /** The bytes, or null when no blob has that hash. */
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
  /** Where the blob lives, as an address to show (`blobs://sha256/…` for the directory store). */
  uri(sha256: string): string;
  /**
   * A signed, expiring address where a client PUTs an object under `key` itself, for a store a
   * client can reach (S3). Absent for the directory store: the server takes such uploads.
   */
  presignPut?(key: string, expiresSeconds: number): Promise<string>;
  /** The object a client PUT under `key` through `presignPut`, or null when there is none yet. */
  readUpload?(key: string): Promise<Buffer | null>;
  /**
   * Every stored blob with its size and when it was last written (a `put` of bytes already
   * stored counts as a write), for the compaction. Absent: the store is not swept (S3 — a
   * bucket's own lifecycle rules expire what no row names).
   */
  list?(): AsyncIterable<{ sha256: string; size: number; writtenAt: number }>;
  /** Removes a blob (nothing when it is already gone). */
  delete?(sha256: string): Promise<void>;
}

const HASH = /^[0-9a-f]{64}$/;

export class DirectoryBlobStore implements BlobStore {
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
  }

  #path(sha256: string): string {
    if (!HASH.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(this.#root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const path = this.#path(sha256);
    // Stored before: mark it written now (so that a compaction sweeping blobs no row names yet
    // leaves it alone until the row about to name it is in); gone meanwhile: write it again.
    const at = new Date();
    const stored = await utimes(path, at, at).then(
      () => true,
      () => false,
    );
    if (!stored) await this.#write(path, bytes);
    return { sha256, size: bytes.byteLength };
  }

  async #write(path: string, bytes: Uint8Array, attempt = 1): Promise<void> {
    // Write aside, then rename: a reader never sees half a blob, and a failed write leaves
    // nothing behind (a full disk is the caller's clean 507, not a stray partial file).
    const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      // Owner-only: the blobs are every user's bundles and logs.
      await mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
      await writeFile(temp, bytes, { mode: 0o600 });
      await rename(temp, path);
    } catch (error) {
      await bestEffort(rm(temp, { force: true }));
      const code = String((error as NodeJS.ErrnoException).code);
      if (FULL.has(code)) throw insufficientStorage();
      // A compaction removed the emptied shard directory between mkdir and write: once more.
      if (code === "ENOENT" && attempt < 3) return this.#write(path, bytes, attempt + 1);
      throw error;
    }
  }

  async get(sha256: string): Promise<Buffer | null> {
    try {
      return await readFile(this.#path(sha256));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  uri(sha256: string): string {
    this.#path(sha256);
    return `blobs://sha256/${sha256}`;
  }

  async *list(): AsyncIterable<{ sha256: string; size: number; writtenAt: number }> {
    for (const a of (await unlessGone(readdir(this.#root))) ?? []) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of (await unlessGone(readdir(join(this.#root, a)))) ?? []) {
        if (!/^[0-9a-f]{2}$/.test(b)) continue;
        for (const name of (await unlessGone(readdir(join(this.#root, a, b)))) ?? []) {
          if (!HASH.test(name)) continue;
          const info = await unlessGone(stat(join(this.#root, a, b, name)));
          if (info) yield { sha256: name, size: info.size, writtenAt: info.mtimeMs };
        }
      }
    }
  }

  async delete(sha256: string): Promise<void> {
    const path = this.#path(sha256);
    await rm(path, { force: true });
    // Empty shard directories cost a block each: remove them (a concurrent put recreates them).
    for (const dir of [join(path, ".."), join(path, "..", "..")])
      if (
        !(await rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        break;
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await stat(this.#path(sha256));
      return true;
    } catch {
      return false;
    }
  }
}
