// A sandboxed runnable's CPU: an equal share and a cap of its own, and the CPU time it used.
// cgroup v1: a group in the `cpu` hierarchy (cpu.shares equal for every seat, cfs quota = the
// cap) and one in `cpuacct` (usage). cgroup v2: one group with cpu.weight and cpu.max where the
// cpu controller is enabled there, else with its usage only (cpu.stat counts without it).
// Every group sits under one parent, `gauntlet-sandbox`: siblings share among themselves. That
// parent weighs as much as one busy task per core (PARENT_WEIGHT_PER_CORE × cores) against the
// host's other tasks, no more: a parent that outweighed the host (131072 per core, tried first)
// kept a seat's turns steadier on a host busy with burners (`bench fairness`, bench/README.md),
// but let a few capped, spinning policies take nearly every cycle from whatever shares their
// host — the quick start's own server and database among them. The caps bound what each seat
// takes, and the runner's own process joins the parent (joinRunnerGroup) beside the seats.
// The cap keeps any one seat from taking more than its CPUs however many threads it spins.
// Equal weights alone share a busy CPU equally at every instant: a seat that sleeps, then
// computes for its turn, got half a core beside an opponent spinning at its cap, and its turns
// took a third longer (`bench fairness`). So a runnable that has wanted nearly all of its cap
// over the last half second weighs an eighth of one that has not (reweigher): whoever wants less than
// its share gets it at once, and the spinners split what is left (nothing idles).
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";

import { bestEffort, unlessGone } from "@gauntlet/core";

const CGROUP_ROOT = "/sys/fs/cgroup";
const PARENT = "gauntlet-sandbox";
/** A seat's weight among its siblings (v1 cpu.shares; v2's cpu.weight is 100 alike). */
const SEAT_SHARES = 1024;
/** How much lighter a runnable weighs while it uses its cap steadily. */
const HUNGRY_DIVISOR = 8;
/** Used this part of its cap over the last window: hungry; below the second: not any more. */
const HUNGRY_FROM = 0.8;
const HUNGRY_UNTIL = 0.5;
/** The window over which a runnable's use of its cap is judged. */
const REWEIGH_WINDOW_MS = 500;
/** The parent's weight per core of the host, against every other task of the root group. */
const PARENT_WEIGHT_PER_CORE = 1024;
const PERIOD_US = 100_000;

/** What one runnable used of the CPU, read from its group. */
export interface CpuUsage {
  /** CPU seconds used by every process that was or is in the group. */
  cpuSeconds: number;
  /** Time its cap held it back (its own demand past its cap), in seconds; null where unknown. */
  throttledSeconds: number | null;
  /**
   * Time its threads were ready to run but waited for a CPU (the run-queue delay of
   * /proc/<tid>/schedstat, its cap's throttling included), summed over the threads seen by
   * sampleWaits() while it ran; null where never read (no schedstat on this kernel).
   */
  waitingSeconds: number | null;
}

export interface CpuGroup {
  /** The `cgroup.procs` files a process joins (one per hierarchy). */
  readonly procsFiles: string[];
  /** Whether the cap (and the equal share) is enforced, or only usage counted. */
  readonly capped: boolean;
  /**
   * Called as it runs (every poll): reads what each of its threads has waited for a CPU so far
   * (the counters die with a thread), and reweighs it by its use of its cap.
   */
  tick(): Promise<void>;
  usage(): Promise<CpuUsage | null>;
  remove(): Promise<void>;
}

/**
 * A runnable's weight by its recent demand for CPU: hungry (an eighth of a seat's weight) once
 * it wanted HUNGRY_FROM of its cap over the last window, back to a seat's weight below
 * HUNGRY_UNTIL. Demand is the CPU seconds it used plus those its threads waited ready to run:
 * on an over-committed runner a spinner gets less than its cap but wants all of it.
 * `write` sets the weight (`full` or `full / HUNGRY_DIVISOR`).
 */
export function reweigher(cpus: number, full: number, write: (weight: number) => Promise<unknown>) {
  let from: { at: number; demand: number } | null = null;
  let hungry = false;
  return async (demand: number | null, at = performance.now()): Promise<void> => {
    if (demand === null) return;
    if (from === null) {
      from = { at, demand };
      return;
    }
    const elapsed = (at - from.at) / 1000;
    if (elapsed * 1000 < REWEIGH_WINDOW_MS) return;
    const share = (demand - from.demand) / (cpus * elapsed);
    from = { at, demand };
    const next = hungry ? share >= HUNGRY_UNTIL : share >= HUNGRY_FROM;
    if (next === hungry) return;
    hungry = next;
    await write(hungry ? Math.max(1, Math.round(full / HUNGRY_DIVISOR)) : full);
  };
}

/**
 * A group's run-queue delay, read from each of its threads while they live. A thread's counter
 * only grows, so the last reading of each thread (by id) is what it waited; a thread that ended
 * between two readings lost at most one poll interval.
 */
function waitCounter(threadsFile: string) {
  const waited = new Map<number, number>();
  let read = false;
  return {
    async sample(): Promise<void> {
      const text = await unlessGone(readFile(threadsFile, "utf8"));
      if (text === null) return;
      const ids = text.split("\n").filter((line) => /^\d+$/.test(line));
      await Promise.all(
        ids.map(async (id) => {
          const stat = await unlessGone(readFile(`/proc/${id}/schedstat`, "utf8"));
          const ns = Number(stat?.split(" ")[1]);
          if (stat === null || !Number.isFinite(ns)) return;
          read = true;
          const tid = Number(id);
          waited.set(tid, Math.max(waited.get(tid) ?? 0, ns));
        }),
      );
    },
    seconds(): number | null {
      if (!read) return null;
      let ns = 0;
      for (const value of waited.values()) ns += value;
      return ns / 1e9;
    },
  };
}

async function tryWrite(path: string, value: string): Promise<boolean> {
  try {
    await writeFile(path, value);
    return true;
  } catch {
    return false;
  }
}

async function readNumber(path: string): Promise<number | null> {
  // Gone: the group was removed, or this kernel has no such counter.
  const text = await unlessGone(readFile(path, "utf8"));
  const value = Number(text?.trim());
  return text === null || !Number.isFinite(value) ? null : value;
}

async function statField(path: string, key: string): Promise<number | null> {
  // Gone: the group was removed, or this kernel has no such counter.
  const text = await unlessGone(readFile(path, "utf8"));
  const line = text?.split("\n").find((l) => l.startsWith(`${key} `));
  const value = Number(line?.split(" ")[1]);
  return line === undefined || !Number.isFinite(value) ? null : value;
}

/** Makes `<root>/gauntlet-sandbox/<leaf>` (the parent if need be); the leaf's path. An existing
 * leaf is an error unless `reuse`. */
async function makeLeaf(
  root: string,
  leaf: string,
  parentSetup: (dir: string) => Promise<void>,
  reuse = false,
) {
  const parent = join(root, PARENT);
  try {
    await mkdir(parent);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  await parentSetup(parent);
  const dir = join(parent, leaf);
  try {
    await mkdir(dir);
  } catch (error) {
    if (!reuse || (error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return dir;
}

/** Removes cgroup directories, waiting up to 5 s for each to empty. */
export async function removeDirs(dirs: string[]): Promise<void> {
  // A group empties a moment after its last process is killed.
  for (let attempt = 0; attempt < 250; attempt += 1) {
    const left = await Promise.all(
      dirs.map((d) =>
        rmdir(d).then(
          () => null,
          (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? null : d),
        ),
      ),
    );
    if (left.every((d) => d === null)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The parent's v1 cpu.shares: PARENT_WEIGHT_PER_CORE per core, within the kernel's maximum. */
function parentShares(): number {
  return Math.min(262_144, PARENT_WEIGHT_PER_CORE * availableParallelism());
}

function quotaUs(cpus: number): number {
  // The kernel's floor is 1 ms per period.
  return Math.max(1_000, Math.round(cpus * PERIOD_US));
}

/** v1: the `cpu` and `cpuacct` hierarchies (separate mounts, or one `cpu,cpuacct`). */
async function v1Group(leaf: string, cpus: number): Promise<CpuGroup | null> {
  const cpuRoot = join(CGROUP_ROOT, "cpu");
  const acctRoot = join(CGROUP_ROOT, "cpuacct");
  const made: string[] = [];
  try {
    const cpuDir = await makeLeaf(cpuRoot, leaf, async (parent) => {
      await tryWrite(join(parent, "cpu.shares"), String(parentShares()));
    });
    made.push(cpuDir);
    const ok =
      (await tryWrite(join(cpuDir, "cpu.shares"), String(SEAT_SHARES))) &&
      (await tryWrite(join(cpuDir, "cpu.cfs_period_us"), String(PERIOD_US))) &&
      (await tryWrite(join(cpuDir, "cpu.cfs_quota_us"), String(quotaUs(cpus))));
    if (!ok) throw new Error("the cpu group cannot be set");
    // One mount for both (cpu,cpuacct): the cpu group counts usage itself.
    const joint = (await readNumber(join(cpuDir, "cpuacct.usage"))) !== null;
    const acctDir = joint ? cpuDir : await makeLeaf(acctRoot, leaf, async () => undefined);
    if (!joint) made.push(acctDir);
    // v1's `tasks` lists every thread of the group.
    const waits = waitCounter(join(cpuDir, "tasks"));
    const reweigh = reweigher(cpus, SEAT_SHARES, (w) =>
      tryWrite(join(cpuDir, "cpu.shares"), String(w)),
    );
    return {
      procsFiles: made.map((d) => join(d, "cgroup.procs")),
      capped: true,
      async tick() {
        await waits.sample();
        const ns = await readNumber(join(acctDir, "cpuacct.usage"));
        await reweigh(ns === null ? null : ns / 1e9 + (waits.seconds() ?? 0));
      },
      async usage() {
        const ns = await readNumber(join(acctDir, "cpuacct.usage"));
        if (ns === null) return null;
        const throttled = await statField(join(cpuDir, "cpu.stat"), "throttled_time");
        return {
          cpuSeconds: ns / 1e9,
          throttledSeconds: throttled === null ? null : throttled / 1e9,
          waitingSeconds: waits.seconds(),
        };
      },
      remove: () => removeDirs(made),
    };
  } catch {
    await Promise.all(made.map((d) => bestEffort(rmdir(d))));
    return null;
  }
}

/** Where the cgroup v2 hierarchy is mounted (`/sys/fs/cgroup` or `…/unified`), or null. */
async function v2Root(): Promise<string | null> {
  const mounts = await readFile("/proc/self/mounts", "utf8").catch(() => "");
  for (const line of mounts.split("\n")) {
    const [, where, type] = line.split(" ");
    if (type === "cgroup2" && where !== undefined) return where;
  }
  return null;
}

/** v2: cpu.weight and cpu.max where the controller can be enabled there, else usage only. */
async function v2Group(leaf: string, cpus: number): Promise<CpuGroup | null> {
  const root = await v2Root();
  if (root === null) return null;
  let capped = false;
  let dir: string;
  try {
    dir = await makeLeaf(root, leaf, async (parent) => {
      const controllers = await readFile(join(root, "cgroup.controllers"), "utf8").catch(() => "");
      if (!controllers.split(/\s+/).includes("cpu")) return;
      await tryWrite(join(root, "cgroup.subtree_control"), "+cpu");
      await tryWrite(
        join(parent, "cpu.weight"),
        String(Math.min(10_000, 100 * availableParallelism())),
      );
      await tryWrite(join(parent, "cgroup.subtree_control"), "+cpu");
    });
  } catch {
    return null;
  }
  capped =
    (await tryWrite(join(dir, "cpu.weight"), "100")) &&
    (await tryWrite(join(dir, "cpu.max"), `${quotaUs(cpus)} ${PERIOD_US}`));
  const waits = waitCounter(join(dir, "cgroup.threads"));
  const reweigh = reweigher(cpus, 100, (w) => tryWrite(join(dir, "cpu.weight"), String(w)));
  return {
    procsFiles: [join(dir, "cgroup.procs")],
    capped,
    async tick() {
      await waits.sample();
      if (!capped) return;
      const usec = await statField(join(dir, "cpu.stat"), "usage_usec");
      await reweigh(usec === null ? null : usec / 1e6 + (waits.seconds() ?? 0));
    },
    async usage() {
      const usec = await statField(join(dir, "cpu.stat"), "usage_usec");
      if (usec === null) return null;
      const throttled = capped ? await statField(join(dir, "cpu.stat"), "throttled_usec") : null;
      return {
        cpuSeconds: usec / 1e6,
        throttledSeconds: throttled === null ? null : throttled / 1e6,
        waitingSeconds: waits.seconds(),
      };
    },
    remove: () => removeDirs([dir]),
  };
}

/**
 * A CPU group for one runnable, capped at `cpus`: v1's cpu controller where it is mounted, else
 * v2. The v2 group on a hybrid host (v1 controllers, v2 without cpu) only counts usage, and
 * counts every process of the runnable since the v1 groups do not move it out of there. Null
 * where none can be made (not root, no cgroup tree).
 */
export async function createCpuGroup(name: string, cpus: number): Promise<CpuGroup | null> {
  const leaf = `${name}-${randomBytes(4).toString("hex")}`;
  return (await v1Group(leaf, cpus)) ?? (await v2Group(leaf, cpus));
}

/**
 * Moves this process (the runner: its heartbeats, uploads, the programs it starts before they
 * join a sandbox's groups) into a CPU group of its own beside the sandboxes, weighing as much
 * as one seat per core: under the parent's weight it would otherwise compete with them from
 * the root group and lose. False where it cannot (no v1 cpu hierarchy, not root).
 */
export async function joinRunnerGroup(): Promise<boolean> {
  const leaf = `runner-${process.pid}`;
  try {
    const dir = await makeLeaf(
      join(CGROUP_ROOT, "cpu"),
      leaf,
      async (parent) => {
        await tryWrite(join(parent, "cpu.shares"), String(parentShares()));
      },
      true,
    );
    await writeFile(join(dir, "cpu.shares"), String(SEAT_SHARES * availableParallelism()));
    await writeFile(join(dir, "cgroup.procs"), String(process.pid));
    return true;
  } catch {
    return false;
  }
}

/** The hierarchies whose parent groups sweepCgroups() cleans up after dead runners. */
export const CPU_CONTROLLERS = ["cpu", "cpuacct"];
