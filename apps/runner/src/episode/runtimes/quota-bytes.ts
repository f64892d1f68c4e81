// How much a sandbox has written into a host directory it may write (its compile cache, the
// episode directory), as its quota counts it. What is in the directory is the sandboxed program's
// doing, so the walk assumes it is hostile: a folder it made unreadable (mode 000 — the runner
// owns it, through the user namespace's mapping, but a non-root owner still cannot list it) is
// made readable again and counted; what still cannot be counted is over the quota, never zero.
import { chmod, lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

import { unlessGone } from "@gauntlet/core";

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

async function entriesOf(dir: string) {
  try {
    return await unlessGone(readdir(dir, { withFileTypes: true }));
  } catch (error) {
    const code = codeOf(error);
    if (code !== "EACCES" && code !== "EPERM") throw error;
    await chmod(dir, 0o700);
    return await unlessGone(readdir(dir, { withFileTypes: true }));
  }
}

/**
 * Bytes of the files under `dir`: 0 when it is gone; `Infinity` when a part of it cannot be
 * read (counted as over any quota, so that hiding files ends the run instead of the count).
 * Never rejects: it runs in a loop nobody awaits.
 */
export async function quotaBytes(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  try {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const entries = await entriesOf(next);
      for (const entry of entries ?? []) {
        const path = join(next, entry.name);
        if (entry.isDirectory()) pending.push(path);
        else if (entry.isFile()) total += (await unlessGone(lstat(path)))?.size ?? 0;
      }
    }
  } catch {
    // Anything but "gone" (permissions that chmod could not fix, I/O): see above.
    return Number.POSITIVE_INFINITY;
  }
  return total;
}
