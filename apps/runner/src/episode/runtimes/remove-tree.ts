// Removing a tree that a sandbox (or a container) wrote: the episode directory, the game's socket
// directory, a job's directory. Node's recursive rm looks a path up again for every entry, so a
// folder swapped for a symbolic link between its look and its removal is followed — with the
// runner's rights, into the host. GNU rm walks with handles on the folders it has opened
// (openat, O_NOFOLLOW, device and inode checked on every descent) and never follows a link,
// however deep the tree; the runner calls it only once every process that could write the tree
// has ended, so nothing races it in the first place.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

import { bestEffort } from "@gauntlet/core";

const run = promisify(execFile);

/**
 * Removes `path` and everything under it without following any link in it; a path that is
 * gone is no error. A non-root runner owns what its sandboxes wrote but cannot enter a folder
 * they made mode 000: it gives itself the right back (chmod -R follows no link either) and
 * tries again. Rejects with rm's own words when the tree still cannot be removed.
 */
export async function removeTree(path: string): Promise<void> {
  const removed = await run("rm", ["-rf", "--one-file-system", "--", path]).then(
    () => true,
    () => false,
  );
  if (removed) return;
  await bestEffort(run("chmod", ["-R", "u+rwX", "--", path]));
  await run("rm", ["-rf", "--one-file-system", "--", path]);
}
