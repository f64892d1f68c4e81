// Node's compile cache for sandboxed runnables (it spares each start the TypeScript stripping and
// compiling of its files: about half a game's boot). A cache is code — Node checks only a CRC of
// the source — so it belongs to one runnable alone, named by its identity (the coworld version's
// game or bundled player, a policy version), never by a path or by the bundle's bytes: a game and
// a player, two users' identical bundles, two runnables never share one. It is written once, by
// the first run of that runnable, in a directory of that run's own; once every process of that
// sandbox has ended, the runner moves it into place (a rename: nothing in it is read or followed)
// and every later run of the same runnable gets it read-only. So no run leaves anything that a
// later run could change, and a run over the cache's quota, or whose runnable already has one,
// keeps nothing.
import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { unlessGone } from "@gauntlet/core";

import type { DirQuota } from "./dir-quota.ts";
import { removeTree } from "./remove-tree.ts";

/** Where a sandbox finds its compile cache. */
export const CACHE_INSIDE = "/run/gauntlet/cache";

/** What a first run may write into its cache. */
export const COMPILE_CACHE_MAX = { bytes: 64 * 1024 * 1024, entries: 4096 };

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
  const fresh = await mkdtemp(join(root, ".first-run-"));
  return {
    binds: ["--bind", fresh, CACHE_INSIDE],
    quota: { dir: fresh, ...COMPILE_CACHE_MAX, what: "its compile cache" },
    async settle(keep) {
      // Another first run of the same runnable may have been kept meanwhile: then this one goes.
      const moved =
        keep &&
        (await rename(fresh, kept).then(
          () => true,
          () => false,
        ));
      if (!moved) await removeTree(fresh);
    },
  };
}
