// Node's compile cache for sandboxed runnables (it spares each start the TypeScript stripping and
// compiling of its files: about half a game's boot). A cache is code — Node checks only a CRC of
// the source — so it belongs to one runnable alone, named by its identity (the coworld version's
// game or bundled player, a policy version), never by a path or by the bundle's bytes: a game and
// a player, two users' identical bundles, two runnables never share one. It is written once, by
// the first run of that runnable, in a directory of that run's own; once every process of that
// sandbox has ended, the runner moves it into place (a rename: nothing in it is read or followed)
// and every later run of the same runnable gets it read-only. So no run leaves anything that a
// later run could change, and a run over the cache's quota, or whose runnable already has one,
// keeps nothing. A first run's directory is made in the runner's own temporary folder
// (temp-root.ts), so a runner killed mid-run leaves it to the next runner's sweep.
import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, rename, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { unlessGone } from "@gauntlet/core";

import { makeTempDir } from "../temp-root.ts";
import type { DirQuota } from "./dir-quota.ts";
import { removeTree } from "./remove-tree.ts";
import { treeUsage } from "./tree-usage.ts";

/** Where a sandbox finds its compile cache. */
export const CACHE_INSIDE = "/run/gauntlet/cache";

/** What a first run may write into its cache. */
export const COMPILE_CACHE_MAX = { bytes: 64 * 1024 * 1024, entries: 4096 };

/** What all kept caches may hold together: past it, the least recently made go. */
const KEPT_MAX_BYTES = 1024 * 1024 * 1024;

/** The runner's caches: its user's alone (0700), on no path a sandbox sees. */
const ROOT = join(tmpdir(), `gauntlet-compile-cache-${process.getuid?.() ?? "user"}`);

export interface CompileCacheMount {
  /** bubblewrap's options that mount it. */
  binds: string[];
  /** The quota of a first run's cache; null when it is mounted read-only. */
  quota: DirQuota | null;
  /** Once every process of the sandbox has ended: keeps a first run's cache (when `keep`) as the
   * runnable's, or drops it. */
  settle(keep: boolean): Promise<void>;
}

/** The compile cache of the runnable named `identity`, for one run of it. */
export async function compileCacheFor(identity: string, root = ROOT): Promise<CompileCacheMount> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const kept = join(root, createHash("sha256").update(identity).digest("hex").slice(0, 32));
  if ((await unlessGone(lstat(kept)))?.isDirectory() === true)
    return { binds: ["--ro-bind", kept, CACHE_INSIDE], quota: null, settle: async () => {} };
  // On the same file system as `root` (both under the temp directory), so keeping it is a rename.
  const fresh = await makeTempDir("cc-");
  return {
    binds: ["--bind", fresh, CACHE_INSIDE],
    quota: { dir: fresh, ...COMPILE_CACHE_MAX, what: "its compile cache" },
    async settle(keep) {
      // Only what Node writes is kept (a folder of plain files), never a program's own files
      // left for the runner's disk. Another first run of the same runnable may have been kept
      // meanwhile: then this one goes.
      const moved =
        keep &&
        (await nodeLayout(fresh)) &&
        (await rename(fresh, kept).then(
          () => true,
          () => false,
        ));
      if (!moved) return removeTree(fresh);
      await evictOver(root, KEPT_MAX_BYTES);
    },
  };
}

/** Whether `dir` holds what Node's compile cache writes: folders of plain files, nothing else.
 * Called once nothing writes it any more; lstat follows no link. */
async function nodeLayout(dir: string): Promise<boolean> {
  for (const folder of await readdir(dir)) {
    if (!(await lstat(join(dir, folder))).isDirectory()) return false;
    for (const name of await readdir(join(dir, folder)))
      if (!(await lstat(join(dir, folder, name))).isFile()) return false;
  }
  return true;
}

/** Removes the least recently made kept caches until all of them hold at most `maxBytes`. */
async function evictOver(root: string, maxBytes: number): Promise<void> {
  const kept = await Promise.all(
    (await readdir(root))
      .filter((name) => !name.startsWith("."))
      .map(async (name) => {
        const path = join(root, name);
        const made = (await unlessGone(stat(path)))?.mtimeMs ?? 0;
        return { path, made, bytes: (await treeUsage(path)).bytes };
      }),
  );
  let total = kept.reduce((sum, cache) => sum + cache.bytes, 0);
  for (const cache of kept.sort((a, b) => a.made - b.made)) {
    if (total <= maxBytes) return;
    await removeTree(cache.path);
    total -= cache.bytes;
  }
}
