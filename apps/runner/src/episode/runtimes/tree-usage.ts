// How much a sandbox has put into a host directory it may write (the episode directory, the
// game's socket directory), as its quota counts it: bytes of files and entries of every kind.
// What is in the directory is the sandboxed program's doing, and it may still be running, so the
// walk assumes it is hostile and races it: every step is taken from a handle on the directory
// already opened (`/proc/self/fd/<n>/<name>`, the openat of Node) with O_NOFOLLOW, so a folder
// swapped for a symbolic link mid-walk is counted as the link it now is, never followed. A folder
// made unreadable (mode 000: the runner owns it through the user namespace's mapping, but a
// non-root owner still cannot list it) is made readable again through its handle and counted;
// what still cannot be counted is over the quota, never zero.
import { constants } from "node:fs";
import { chmod, open, readdir, type FileHandle } from "node:fs/promises";

import { bestEffort, unlessGone } from "@gauntlet/core";

/** O_PATH: a handle that names a file without opening it (Node's constants lack it). */
const O_PATH = 0o10000000;
const NO_FOLLOW = O_PATH | constants.O_NOFOLLOW;

export interface TreeUsage {
  /** Bytes of the regular files. */
  bytes: number;
  /** Entries of every kind (files, folders, links, sockets, FIFOs), the root not counted. */
  entries: number;
}

/** What a walk that could not finish reports: over every quota. */
const UNCOUNTABLE: TreeUsage = {
  bytes: Number.POSITIVE_INFINITY,
  entries: Number.POSITIVE_INFINITY,
};

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** The names in the folder held by `handle`; made readable first if its owner locked itself out. */
async function namesIn(handle: FileHandle): Promise<string[]> {
  const path = `/proc/self/fd/${handle.fd}`;
  try {
    return (await unlessGone(readdir(path))) ?? [];
  } catch (error) {
    const code = codeOf(error);
    if (code !== "EACCES" && code !== "EPERM") throw error;
    // Through the handle: the inode already opened, whatever its name now points to.
    await chmod(path, 0o700);
    return (await unlessGone(readdir(path))) ?? [];
  }
}

/**
 * The usage of the tree under `dir` (a path the runner made, none of whose parts a sandbox can
 * change). Stops counting once `maxEntries` is passed: a flood of entries is over the quota
 * whatever else it holds, and the walk holds at most that many handles. A directory that is
 * gone is empty. Never rejects: it runs in a loop nobody awaits.
 */
export async function treeUsage(
  dir: string,
  maxEntries = Number.POSITIVE_INFINITY,
): Promise<TreeUsage> {
  const usage: TreeUsage = { bytes: 0, entries: 0 };
  const pending: FileHandle[] = [];
  try {
    const top = await unlessGone(open(dir, NO_FOLLOW));
    if (top === null) return usage;
    pending.push(top);
    for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
      try {
        if (!(await folder.stat()).isDirectory()) continue;
        for (const name of await namesIn(folder)) {
          usage.entries += 1;
          if (usage.entries > maxEntries) return usage;
          const entry = await unlessGone(open(`/proc/self/fd/${folder.fd}/${name}`, NO_FOLLOW));
          if (entry === null) continue;
          const info = await entry.stat().catch(async (error: unknown) => {
            await entry.close();
            throw error;
          });
          if (info.isDirectory()) {
            pending.push(entry);
            continue;
          }
          if (info.isFile()) usage.bytes += info.size;
          await entry.close();
        }
      } finally {
        await folder.close();
      }
    }
    return usage;
  } catch {
    // Anything but "gone" (permissions that chmod could not fix, I/O): see above.
    return UNCOUNTABLE;
  } finally {
    await Promise.all(pending.map((handle) => bestEffort(handle.close())));
  }
}
