// bubblewrap's command line: the namespaces, the seccomp filter, the host system read-only, the
// box's tmpfs and the runner's Node; and the launcher shell that sets cgroups and rlimits first.
import { existsSync, lstatSync, realpathSync } from "node:fs";

import { type Cgroups, type SandboxLimits } from "./limits.ts";
import { hostSeccompArch, seccompProgram } from "./seccomp.ts";

export const SANDBOX_ID = 65534;
export const INSIDE = {
  node: "/run/gauntlet/bin/node",
  path: "/run/gauntlet/bin:/usr/local/bin:/usr/bin:/bin",
  net: "/run/gauntlet/net",
  seat: "/run/gauntlet/seat",
  files: "/bundle",
  episode: "/episode",
};

export function isRoot(): boolean {
  return process.geteuid?.() === 0;
}

/** The host's top-level directories a dynamically linked program needs, as they are here. */
export function systemView(): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const top of ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]) {
    const path = `/${top}`;
    // Absent on this machine: nothing to bind. Any other failure is the runner's to report.
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    if (stat.isSymbolicLink()) args.push("--symlink", realpathSync(path).replace(/^\//, ""), path);
    else if (stat.isDirectory()) args.push("--ro-bind", path, path);
  }
  // What the dynamic linker and time zone look up; nothing else of /etc.
  for (const file of ["/etc/ld.so.cache", "/etc/localtime"])
    if (existsSync(file)) args.push("--ro-bind", file, file);
  return args;
}

/** The seccomp filter of this machine's architecture (seccomp.ts); null where none is known. */
export const arch = hostSeccompArch();
export const SECCOMP: Buffer | null = arch === null ? null : seccompProgram(arch);
/** The descriptor bubblewrap reads the filter from: spawn's first extra pipe. */
export const SECCOMP_FD = 3;
/** The descriptor bubblewrap reads its options from (`--args`): spawn's second extra pipe. */
export const ARGS_FD = 4;
/** The descriptor a held sandbox's first shell reads "go" from: spawn's third extra pipe. */
export const HOLD_FD = 5;

/** The last options: bubblewrap's own tmpfs (the root, /dev) read-only, all mounts made. */
export const READ_ONLY_AT_LAST = ["--remount-ro", "/dev", "--remount-ro", "/"];

/** Options as `--args` reads them: each ended by a NUL. */
export function nulSeparated(args: string[]): Buffer {
  return Buffer.from(args.map((arg) => `${arg}\0`).join(""));
}

/**
 * bubblewrap's arguments common to every sandbox: namespaces, the seccomp filter (read from
 * file descriptor 3, which the caller fills with SECCOMP), the system, /proc, /dev, /tmp.
 */
export function baseBwrapArgs(limits: SandboxLimits): string[] {
  return [
    "--seccomp",
    String(SECCOMP_FD),
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--uid",
    String(SANDBOX_ID),
    "--gid",
    String(SANDBOX_ID),
    ...(isRoot() ? ["--cap-drop", "ALL"] : []),
    "--hostname",
    "sandbox",
    "--die-with-parent",
    "--new-session",
    ...systemView(),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    // The box's writable places are tmpfs of a known size: /tmp and /dev/shm. The root and /dev
    // (tmpfs bubblewrap makes, of no size) are made read-only once everything is mounted.
    "--size",
    String(limits.scratchBytes),
    "--tmpfs",
    "/dev/shm",
    "--size",
    String(limits.scratchBytes),
    "--tmpfs",
    "/tmp",
    "--ro-bind",
    realpathSync(process.execPath),
    INSIDE.node,
  ];
}

/**
 * What runs before bubblewrap: one shell that joins the runnable's cgroups and sets the rlimits
 * of every process in the sandbox with its builtins (no prlimit or other process of its own),
 * then becomes bubblewrap. RLIMIT_NPROC only where no pids cgroup counts. Arguments: the
 * `cgroup.procs` files, `--`, bubblewrap's argv.
 */
export function launcher(limits: SandboxLimits, cgroups: Cgroups | null): string[] {
  // dash counts file sizes in 512-byte blocks; the hard CPU limit leaves 5 s past SIGXCPU.
  const blocks = Math.max(1, Math.floor(limits.scratchBytes / 512));
  const script = [
    'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift',
    `ulimit -n ${limits.openFiles}`,
    `ulimit -t ${limits.cpuSeconds + 5}`,
    `ulimit -S -t ${limits.cpuSeconds}`,
    `ulimit -f ${blocks}`,
    "ulimit -c 0",
    ...(cgroups === null && !isRoot() ? [`ulimit -p ${limits.pids}`] : []),
    'exec "$@"',
  ].join("\n");
  return ["/bin/sh", "-c", script, "sh", ...(cgroups?.procsFiles ?? []), "--"];
}
