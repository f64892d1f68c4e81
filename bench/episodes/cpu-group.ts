// CPU time of a process and every process it starts, counted by a cgroup v2 group of their own:
// unlike wall time, it does not move with the other load on the machine. A group's `cpu.stat`
// counts whether or not the cpu controller is enabled, and keeps counting children that other
// (v1) hierarchies move elsewhere — the sandbox's pids and memory groups. Needs root.
import { mkdir, readFile, rmdir } from "node:fs/promises";
import { join } from "node:path";

/** Where the cgroup v2 hierarchy is mounted (`/sys/fs/cgroup` or `…/unified`), or null. */
async function v2Root(): Promise<string | null> {
  const mounts = await readFile("/proc/self/mounts", "utf8").catch(() => "");
  for (const line of mounts.split("\n")) {
    const [, where, type] = line.split(" ");
    if (type === "cgroup2" && where !== undefined) return where;
  }
  return null;
}

export interface CpuGroup {
  /** argv prefix that joins the group, then becomes the rest of the argv. */
  readonly wrap: string[];
  /** CPU microseconds used by every process that was or is in the group. */
  usageUsec(): Promise<number>;
  remove(): Promise<void>;
}

/** A fresh group named `name`, or null where none can be made (no cgroup v2, not root). */
export async function createCpuGroup(name: string): Promise<CpuGroup | null> {
  const root = await v2Root();
  if (root === null) return null;
  const dir = join(root, `gauntlet-bench-${process.pid}-${name}`);
  try {
    await mkdir(dir);
  } catch {
    return null;
  }
  return {
    wrap: ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', join(dir, "cgroup.procs")],
    async usageUsec() {
      const stat = await readFile(join(dir, "cpu.stat"), "utf8");
      const line = stat.split("\n").find((l) => l.startsWith("usage_usec "));
      return Number(line?.split(" ")[1] ?? 0);
    },
    async remove() {
      // A group empties a moment after its last process has exited.
      for (let attempt = 0; attempt < 100; attempt += 1) {
        if (
          await rmdir(dir).then(
            () => true,
            () => false,
          )
        )
          return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
