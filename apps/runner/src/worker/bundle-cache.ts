// Bundles by content hash: downloaded once, checked against their hash, extracted once under
// the work directory and shared by every episode that needs them (also across runner
// processes on one work directory: a bundle appears under its hash by an atomic rename).
import { createHash, randomBytes } from "node:crypto";
import { rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

import { BundleError, extractBundle } from "./extract-bundle.ts";

const SHA256 = /^[0-9a-f]{64}$/;

export class BundleCache {
  readonly #dir: string;
  readonly #download: (sha256: string) => Promise<Uint8Array>;
  readonly #pending = new Map<string, Promise<string>>();

  constructor(dir: string, download: (sha256: string) => Promise<Uint8Array>) {
    this.#dir = dir;
    this.#download = download;
  }

  /** The directory holding the extracted bundle. */
  async directory(sha256: string): Promise<string> {
    if (!SHA256.test(sha256)) throw new BundleError(`not a bundle hash: ${JSON.stringify(sha256)}`);
    const pending = this.#pending.get(sha256);
    if (pending) return pending;
    const fetching = this.#fetch(sha256).finally(() => this.#pending.delete(sha256));
    this.#pending.set(sha256, fetching);
    return fetching;
  }

  async #fetch(sha256: string): Promise<string> {
    const target = join(this.#dir, sha256);
    if (await exists(target)) return target;
    const bytes = await this.#download(sha256);
    const actual = createHash("sha256").update(bytes).digest("hex");
    if (actual !== sha256) throw new Error(`bundle ${sha256} arrived with hash ${actual}`);
    const staging = join(this.#dir, `.${sha256}.${randomBytes(4).toString("hex")}`);
    try {
      await extractBundle(bytes, staging);
      await rename(staging, target).catch(async (error: unknown) => {
        // Another runner on this work directory extracted it first: theirs is as good as ours.
        if (!(await exists(target))) throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    return target;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
