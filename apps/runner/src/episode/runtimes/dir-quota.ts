// The host directories a runnable may write (the game's episode and socket directories), each
// with the bytes and entries it may not pass. Counted by a walk that follows no link
// (tree-usage.ts); over a quota, the runnable's episode ends as `resource_limit`.
import type { LimitHit } from "./limits.ts";
import { treeUsage } from "./tree-usage.ts";

export interface DirQuota {
  dir: string;
  bytes: number;
  entries: number;
  /** The directory in the episode's error: "the episode directory". */
  what: string;
}

/** Entries the game may make in the episode directory (its results, replay, failure, files). */
export const EPISODE_DIR_MAX_ENTRIES = 4096;

/** The first quota passed, in the words of the episode's error; null when none is. */
export async function overQuota(quotas: DirQuota[]): Promise<LimitHit | null> {
  for (const quota of quotas) {
    const used = await treeUsage(quota.dir, quota.entries);
    if (used.entries > quota.entries)
      return {
        error_type: "resource_limit",
        what: `made more than ${quota.entries} files in ${quota.what}`,
      };
    if (used.bytes > quota.bytes)
      return {
        error_type: "resource_limit",
        what: `wrote more than ${quota.bytes} bytes into ${quota.what}`,
      };
  }
  return null;
}
