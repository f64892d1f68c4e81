// The runner's temporary trees outside its work directory — a sandbox's sockets and binds, the
// docker runtime's socket folder, artifact uploads — are made in one folder of each process's
// own under the system's temp directory, `gsb-XXXXXX` (short: a Unix socket's path has room for
// 107 bytes), which records its owner (pid and start time). A runner killed with SIGKILL
// removes none of them; the next runner's start removes every such folder whose owner is gone.
// Their names are random: a sandbox sees its binds' host paths in /proc/self/mountinfo.
import { constants, readdirSync, rmdirSync, rmSync } from "node:fs";
import { lstat, mkdtemp, open, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { unlessGone } from "@gauntlet/core";

import { procInfo, stillRunning } from "../worker/proc.ts";
import { removeTree } from "./runtimes/remove-tree.ts";

const PREFIX = "gsb-";
const OWNER_FILE = "owner.json";
/** Where earlier runners made their trees one by one, with no owner recorded. */
const UNOWNED_PREFIXES = [PREFIX, "gauntlet-docker-", "gauntlet-artifacts-"];
/**
 * An unowned folder that old belongs to no live runner: a process records its owner right
 * after making its folder, and no episode of an earlier runner lasts a day.
 */
const UNOWNED_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface Owner {
  pid: number;
  start_time: number | null;
}

let own: Promise<string> | null = null;

/** This process's folder, made (and its owner recorded) on first use. */
function ownRoot(): Promise<string> {
  own ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), PREFIX));
    const owner: Owner = { pid: process.pid, start_time: procInfo(process.pid)?.startTime ?? null };
    await writeFile(join(dir, OWNER_FILE), JSON.stringify(owner), { mode: 0o600 });
    process.once("exit", () => removeIfEmpty(dir));
    return dir;
  })();
  // A failure is not kept: the next call tries again.
  void own.catch(() => (own = null));
  return own;
}

/** A new folder of a random name for one temporary tree, in this process's own folder. */
export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(await ownRoot(), prefix));
}

/**
 * At the process's exit: its folder, once every tree in it is removed. One with a tree left
 * (an episode still running when the process exits) is left to the next runner's sweep.
 */
function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).some((name) => name !== OWNER_FILE)) return;
    rmSync(join(dir, OWNER_FILE), { force: true });
    rmdirSync(dir);
  } catch {
    // Gone already, or made busy meanwhile: the sweep's to judge.
  }
}

/**
 * Removes the temporary folders of processes that have ended, under `dir` (the system's temp
 * directory): only this user's, never following a link (`remove-tree.ts`). Returns how many.
 */
export async function sweepTempRoots(dir = tmpdir()): Promise<number> {
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of (await unlessGone(readdir(dir))) ?? []) {
    if (!UNOWNED_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    const path = join(dir, name);
    // Gone meanwhile: another runner swept it first.
    const info = await unlessGone(lstat(path));
    if (info === null || !info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
    const owner = name.startsWith(PREFIX) ? await readOwner(path) : null;
    if (owner !== null ? stillRunning(owner.pid, owner.start_time) : !unownedAndOld(info.mtimeMs))
      continue;
    await removeTree(path);
    removed += 1;
  }
  return removed;
}

function unownedAndOld(mtimeMs: number): boolean {
  return Date.now() - mtimeMs > UNOWNED_MAX_AGE_MS;
}

/** The owner a folder records; null where there is none that reads. Follows no link. */
async function readOwner(dir: string): Promise<Owner | null> {
  let text: string;
  try {
    const file = await open(join(dir, OWNER_FILE), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      text = await file.readFile("utf8");
    } finally {
      await file.close();
    }
  } catch {
    // None (made by an earlier runner, or its process died before recording it), or a link.
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Owner>;
    if (typeof parsed.pid !== "number") return null;
    return {
      pid: parsed.pid,
      start_time: typeof parsed.start_time === "number" ? parsed.start_time : null,
    };
  } catch {
    // Cut short by its process's death while being written.
    return null;
  }
}
