// Resource limits of one sandboxed runnable: cgroup v1 controllers (pids, memory) where the
// runner may create groups — as root on this kind of host — plus rlimits always. A
// group tells afterwards which limit a runnable hit, so the episode can name it and its seat.
// CPU: a group of its own with an equal share and a cap (cpu-share.ts), which also counts the
// CPU time the runnable used; CPU time of any one process is bounded by RLIMIT_CPU besides.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rmdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { bestEffort, unlessGone } from "@gauntlet/core";

import { CPU_CONTROLLERS, createCpuGroup, removeDirs, type CpuUsage } from "./cpu-share.ts";

export interface SandboxLimits {
  /** Memory of the whole sandbox (every process in it), in bytes. */
  memoryBytes: number;
  /** Processes and threads alive at once in the sandbox. */
  pids: number;
  /** CPU time of any one process, in seconds (RLIMIT_CPU). */
  cpuSeconds: number;
  /** CPUs the whole sandbox may use at once (its cgroup's quota; equal shares besides).
   * Default DEFAULT_CPUS. */
  cpus?: number | undefined;
  /** Open files of any one process. */
  openFiles: number;
  /** Size of the writable scratch directory (/tmp, a tmpfs) and of any file written. */
  scratchBytes: number;
  /** What the game may write into the episode directory (results, replay), in all. */
  outputBytes: number;
}

/** A runnable's CPU cap unless the runner or the coworld's manifest says otherwise. */
export const DEFAULT_CPUS = 1;

export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 512 * 1024 * 1024,
  pids: 128,
  cpuSeconds: 600,
  cpus: DEFAULT_CPUS,
  openFiles: 256,
  scratchBytes: 64 * 1024 * 1024,
  outputBytes: 256 * 1024 * 1024,
};

/** A limit a runnable ran into, in the words of the episode's error. */
export interface LimitHit {
  error_type: "out_of_memory" | "resource_limit";
  what: string;
}

const CGROUP_ROOT = "/sys/fs/cgroup";
const PARENT = "gauntlet-sandbox";

export interface Cgroups {
  /** The `cgroup.procs` files a process joins before it becomes the sandbox. */
  readonly procsFiles: string[];
  /** Which limit was hit, if any. */
  hit(): Promise<LimitHit | null>;
  /** The CPU the runnable used so far; null where no CPU group could be made. */
  cpuUsage(): Promise<CpuUsage | null>;
  /** Called as it runs: its CPU group's readings and weight (cpu-share.ts, CpuGroup.tick). */
  tickCpu(): Promise<void>;
  remove(): Promise<void>;
}

async function tryWrite(path: string, value: string): Promise<boolean> {
  try {
    await writeFile(path, value);
    return true;
  } catch {
    return false;
  }
}

async function counter(path: string, key: string): Promise<number> {
  try {
    const line = (await readFile(path, "utf8"))
      .split("\n")
      .find((l) => l.startsWith(`${key} `) || l.startsWith(`${key}\t`));
    return Number(line?.split(/\s+/)[1] ?? 0) || 0;
  } catch {
    return 0;
  }
}

/**
 * Makes the group `leaf` under the runner's parent group of `controller`, one level at a time.
 * Not mkdir's `recursive`: where a parent exists but cannot hold directories — a fresh sysfs with
 * no cgroup tree mounted, as under `ip netns exec` — Node's recursive mkdir retries for ever
 * (the child ENOENT, its parent EEXIST) and the runner spins instead of starting the sandbox.
 */
async function makeGroup(controller: string, leaf: string): Promise<void> {
  const parent = join(CGROUP_ROOT, controller, PARENT);
  try {
    await mkdir(parent);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  await mkdir(join(parent, leaf));
}

/**
 * Makes a group per controller for one runnable, or returns null where cgroups cannot be made
 * (not root, a read-only or unified-only hierarchy, no cgroup tree mounted): the rlimits still
 * apply then.
 */
export async function createCgroups(name: string, limits: SandboxLimits): Promise<Cgroups | null> {
  const leaf = `${name}-${randomBytes(4).toString("hex")}`;
  const dir = (controller: string) => join(CGROUP_ROOT, controller, PARENT, leaf);
  const made: string[] = [];
  try {
    for (const controller of ["pids", "memory"]) {
      await makeGroup(controller, leaf);
      made.push(dir(controller));
    }
  } catch {
    await Promise.all(made.map((d) => bestEffort(rmdir(d))));
    return null;
  }
  const ok =
    (await tryWrite(join(dir("pids"), "pids.max"), String(limits.pids))) &&
    (await tryWrite(join(dir("memory"), "memory.limit_in_bytes"), String(limits.memoryBytes)));
  if (!ok) {
    await Promise.all(made.map((d) => bestEffort(rmdir(d))));
    return null;
  }
  // No swap beyond the limit where swap is accounted.
  await tryWrite(join(dir("memory"), "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
  // Optional: a host without a cpu hierarchy still gets its pids and memory limits.
  const cpu = await createCpuGroup(name, limits.cpus ?? DEFAULT_CPUS);
  return {
    procsFiles: [...made.map((d) => join(d, "cgroup.procs")), ...(cpu?.procsFiles ?? [])],
    cpuUsage: async () => (cpu === null ? null : cpu.usage()),
    tickCpu: async () => cpu?.tick(),
    async hit() {
      if ((await counter(join(dir("memory"), "memory.oom_control"), "oom_kill")) > 0)
        return {
          error_type: "out_of_memory",
          what: `used more than its ${limits.memoryBytes}-byte memory limit`,
        };
      if ((await counter(join(dir("pids"), "pids.events"), "max")) > 0)
        return {
          error_type: "resource_limit",
          what: `tried to run more than ${limits.pids} processes at once`,
        };
      return null;
    },
    async remove() {
      await cpu?.remove();
      await removeDirs(made);
    },
  };
}

/**
 * What a sandbox goes without on this machine when no cgroups can be made here, in one line, or
 * null when they can. Without them its memory is not bounded at all (an address-space rlimit
 * would stop Node itself), and as root neither is its process count: root is exempt from
 * RLIMIT_NPROC.
 */
export async function cgroupsProblem(): Promise<string | null> {
  const groups = await createCgroups("probe", DEFAULT_LIMITS);
  if (groups !== null) {
    await groups.remove();
    return null;
  }
  const unbounded = process.geteuid?.() === 0 ? "memory and process count" : "memory";
  return `no cgroups can be made under ${CGROUP_ROOT}/{pids,memory} (not mounted, read-only, or not root): a sandbox's ${unbounded} will not be limited, only its rlimits apply`;
}

/**
 * Removes the empty groups that runners which died (or gave up waiting) left behind. Only groups
 * older than a minute: a younger empty one may be another runner's, about to be joined.
 */
export async function sweepCgroups(minAgeMs = 60_000): Promise<number> {
  let removed = 0;
  for (const controller of ["pids", "memory", ...CPU_CONTROLLERS]) {
    const parent = join(CGROUP_ROOT, controller, PARENT);
    // Gone: no cgroup tree here, or no runner ever made a group under it.
    const entries = await unlessGone(readdir(parent, { withFileTypes: true }));
    const leaves = (entries ?? []).filter((e) => e.isDirectory()).map((e) => e.name);
    for (const leaf of leaves) {
      const dir = join(parent, leaf);
      // Gone meanwhile: another runner swept it first.
      const info = await unlessGone(stat(dir));
      if (info === null || Date.now() - info.mtimeMs < minAgeMs) continue;
      const procs = await unlessGone(readFile(join(dir, "cgroup.procs"), "utf8"));
      if (procs === null || procs.trim() !== "") continue;
      if (await removeLeftGroup(dir)) removed += 1;
    }
  }
  return removed;
}

/**
 * Where a group is not this runner's to remove now: gone (swept by another), joined meanwhile
 * (busy), or not removable by this runner's user or on this mount.
 */
const NOT_OURS_TO_REMOVE = new Set(["ENOENT", "EBUSY", "ENOTEMPTY", "EACCES", "EPERM", "EROFS"]);

/** Removes a left group; false where it is not ours to remove (above). Other failures reject. */
async function removeLeftGroup(dir: string): Promise<boolean> {
  try {
    await rmdir(dir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && NOT_OURS_TO_REMOVE.has(code)) return false;
    throw error;
  }
}
