// The blob store of ARCHITECTURE.md: content-addressed bytes (replays, logs, bundles).
// A directory by default; the interface is what an S3-compatible store would implement.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

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
    if (!(await this.has(sha256))) {
      // Write aside, then rename: a reader never sees half a blob, and a failed write leaves
      // nothing behind (a full disk is the caller's clean 507, not a stray partial file).
      const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        // Owner-only: the blobs are every user's bundles and logs.
        await mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
        await writeFile(temp, bytes, { mode: 0o600 });
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true }).catch(() => undefined);
        if (FULL.has(String((error as NodeJS.ErrnoException).code))) throw insufficientStorage();
        throw error;
      }
    }
    return { sha256, size: bytes.byteLength };
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

  async has(sha256: string): Promise<boolean> {
    try {
      await stat(this.#path(sha256));
      return true;
    } catch {
      return false;
    }
  }
}
