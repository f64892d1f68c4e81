// Bundles by content hash: downloaded once, checked against their hash, extracted once under
// the work directory and shared by every episode that needs them (also across runner
// processes on one work directory: a bundle appears under its hash by an atomic rename).
// The cache is capped by size: past the cap, the least recently used bundles that no running
// episode of this runner holds are removed (a bundle's directory time marks its last use, so
// runners sharing the directory see each other's use too). Runnables see a bundle read-only
// (the sandbox binds it so); nothing an episode does changes the cached copy.
import { createHash, randomBytes } from "node:crypto";
import { readdir, rename, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";

import { bestEffort, unlessGone } from "@gauntlet/core";

import { BundleError, extractBundle } from "./extract-bundle.ts";

const SHA256 = /^[0-9a-f]{64}$/;
export const DEFAULT_BUNDLE_CACHE_BYTES = 2 * 1024 * 1024 * 1024;
/** A bundle used this recently is kept: another runner on the directory may be starting it. */
const RECENT_MS = 60_000;

export class BundleCache {
  readonly #dir: string;
  readonly #download: (sha256: string) => Promise<Uint8Array>;
  readonly #capBytes: number;
  readonly #recentMs: number;
  readonly #pending = new Map<string, Promise<string>>();
  readonly #pinned = new Map<string, number>();
  #evicting: Promise<void> = Promise.resolve();

  constructor(
    dir: string,
    download: (sha256: string) => Promise<Uint8Array>,
    capBytes = DEFAULT_BUNDLE_CACHE_BYTES,
    recentMs = RECENT_MS,
  ) {
    this.#recentMs = recentMs;
    this.#dir = dir;
    this.#download = download;
    this.#capBytes = capBytes;
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

  /** Keeps these bundles from eviction until the returned function is called (one episode). */
  pin(shas: Iterable<string>): () => void {
    const held = [...new Set(shas)];
    for (const sha of held) this.#pinned.set(sha, (this.#pinned.get(sha) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const sha of held) {
        const left = (this.#pinned.get(sha) ?? 1) - 1;
        if (left <= 0) this.#pinned.delete(sha);
        else this.#pinned.set(sha, left);
      }
    };
  }

  async #fetch(sha256: string): Promise<string> {
    const target = join(this.#dir, sha256);
    if (await exists(target)) {
      const now = new Date();
      // Recency for eviction only: a bundle served is served whether or not it is marked.
      await bestEffort(utimes(target, now, now));
      return target;
    }
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
    // Eviction is housekeeping the next download retries: its failure must not fail this one.
    this.#evicting = bestEffort(this.#evicting.then(() => this.#evict(sha256)));
    await this.#evicting;
    return target;
  }

  /** Removes least recently used bundles until the cache fits its cap again. */
  async #evict(keep: string): Promise<void> {
    const entries: { sha: string; bytes: number; used: number }[] = [];
    for (const name of await readdir(this.#dir)) {
      if (!SHA256.test(name)) continue;
      const path = join(this.#dir, name);
      const info = await unlessGone(stat(path));
      if (info === null) continue;
      entries.push({ sha: name, bytes: await sizeOf(path), used: info.mtimeMs });
    }
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    const now = Date.now();
    for (const entry of entries.sort((a, b) => a.used - b.used)) {
      if (total <= this.#capBytes) return;
      if (entry.sha === keep || this.#pinned.has(entry.sha) || this.#pending.has(entry.sha))
        continue;
      if (now - entry.used < this.#recentMs) continue;
      await rm(join(this.#dir, entry.sha), { recursive: true, force: true });
      total -= entry.bytes;
    }
  }
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const info = await unlessGone(stat(join(entry.parentPath, entry.name)));
    total += info?.size ?? 0;
  }
  return total;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
