// The seccomp filter of every sandbox: a classic-BPF program, assembled here, that bubblewrap
// loads (`--seccomp <fd>`) just before it starts the sandbox's first process. It lets through
// what an ordinary program does and refuses, with EPERM, the system calls an untrusted policy
// never needs and that widen the kernel's attack surface or reach past the sandbox: debugging
// other processes, namespaces and mounts, keyrings, BPF, perf, io_uring, kernel modules, the
// clock and the machine's state. Another architecture (i386 or x32 calls on x86_64, 32-bit arm
// on aarch64) would bypass the numbers below, so it is refused outright.
//
// Numbers: Linux's syscall tables — arch/x86/entry/syscalls/syscall_64.tbl for x86_64 and
// include/uapi/asm-generic/unistd.h for aarch64 (as installed in /usr/include by linux-libc-dev:
// asm/unistd_64.h and asm-generic/unistd.h).

/** `struct seccomp_data` (include/uapi/linux/seccomp.h): where the filter reads. */
const DATA = { nr: 0, arch: 4, arg0Low: 16 } as const;

// Classic BPF opcodes (include/uapi/linux/bpf_common.h).
const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JMP_JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JMP_JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JMP_JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

// Filter results (include/uapi/linux/seccomp.h) and the errnos given back.
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const EPERM = 1;
export const ENOSYS = 38;

export const AUDIT_ARCH_X86_64 = 0xc000003e;
export const AUDIT_ARCH_AARCH64 = 0xc00000b7;
/** Set in the number of every x32 system call (arch/x86/include/uapi/asm/unistd.h). */
export const X32_SYSCALL_BIT = 0x40000000;

/** The clone flags that make a new namespace (include/uapi/linux/sched.h); CLONE_NEWTIME
 * (0x80) shares its bit with clone's exit signal and is reachable only through unshare and
 * clone3, which are refused whole. */
export const CLONE_NAMESPACE_FLAGS =
  0x00020000 | // CLONE_NEWNS
  0x02000000 | // CLONE_NEWCGROUP
  0x04000000 | // CLONE_NEWUTS
  0x08000000 | // CLONE_NEWIPC
  0x10000000 | // CLONE_NEWUSER
  0x20000000 | // CLONE_NEWPID
  0x40000000; // CLONE_NEWNET

/** personality() values a program may set (Docker's default profile allows the same): Linux,
 * 32-bit Linux, UNAME26 of either, and the query 0xffffffff. ADDR_NO_RANDOMIZE is not among them. */
export const PERSONALITY_ALLOWED = [0x0, 0x8, 0x20000, 0x20008, 0xffffffff];

export type SeccompArch = "x86_64" | "aarch64";

/** System calls refused with EPERM; `null` where the architecture has no such call. */
export const DENIED: Record<string, Record<SeccompArch, number | null>> = {
  // Another process's memory and execution.
  ptrace: { x86_64: 101, aarch64: 117 },
  process_vm_readv: { x86_64: 310, aarch64: 270 },
  process_vm_writev: { x86_64: 311, aarch64: 271 },
  pidfd_getfd: { x86_64: 438, aarch64: 438 },
  kcmp: { x86_64: 312, aarch64: 272 },
  // Namespaces and mounts: the sandbox's shape is bubblewrap's to set, not the runnable's.
  unshare: { x86_64: 272, aarch64: 97 },
  setns: { x86_64: 308, aarch64: 268 },
  mount: { x86_64: 165, aarch64: 40 },
  umount2: { x86_64: 166, aarch64: 39 },
  pivot_root: { x86_64: 155, aarch64: 41 },
  chroot: { x86_64: 161, aarch64: 51 },
  open_tree: { x86_64: 428, aarch64: 428 },
  move_mount: { x86_64: 429, aarch64: 429 },
  fsopen: { x86_64: 430, aarch64: 430 },
  fsconfig: { x86_64: 431, aarch64: 431 },
  fsmount: { x86_64: 432, aarch64: 432 },
  fspick: { x86_64: 433, aarch64: 433 },
  mount_setattr: { x86_64: 442, aarch64: 442 },
  // Files by handle, past the mount namespace's view.
  open_by_handle_at: { x86_64: 304, aarch64: 265 },
  name_to_handle_at: { x86_64: 303, aarch64: 264 },
  // Kernel keyrings (shared by the user across namespaces).
  keyctl: { x86_64: 250, aarch64: 219 },
  add_key: { x86_64: 248, aarch64: 217 },
  request_key: { x86_64: 249, aarch64: 218 },
  // Large kernel attack surfaces that no game or policy uses.
  bpf: { x86_64: 321, aarch64: 280 },
  perf_event_open: { x86_64: 298, aarch64: 241 },
  userfaultfd: { x86_64: 323, aarch64: 282 },
  io_uring_setup: { x86_64: 425, aarch64: 425 },
  io_uring_enter: { x86_64: 426, aarch64: 426 },
  io_uring_register: { x86_64: 427, aarch64: 427 },
  fanotify_init: { x86_64: 300, aarch64: 262 },
  lookup_dcookie: { x86_64: 212, aarch64: 18 },
  move_pages: { x86_64: 279, aarch64: 239 },
  migrate_pages: { x86_64: 256, aarch64: 238 },
  // The kernel, the machine and the clock.
  kexec_load: { x86_64: 246, aarch64: 104 },
  kexec_file_load: { x86_64: 320, aarch64: 294 },
  init_module: { x86_64: 175, aarch64: 105 },
  finit_module: { x86_64: 313, aarch64: 273 },
  delete_module: { x86_64: 176, aarch64: 106 },
  reboot: { x86_64: 169, aarch64: 142 },
  swapon: { x86_64: 167, aarch64: 224 },
  swapoff: { x86_64: 168, aarch64: 225 },
  acct: { x86_64: 163, aarch64: 89 },
  quotactl: { x86_64: 179, aarch64: 60 },
  quotactl_fd: { x86_64: 443, aarch64: 443 },
  syslog: { x86_64: 103, aarch64: 116 },
  iopl: { x86_64: 172, aarch64: null },
  ioperm: { x86_64: 173, aarch64: null },
  settimeofday: { x86_64: 164, aarch64: 170 },
  clock_settime: { x86_64: 227, aarch64: 112 },
  adjtimex: { x86_64: 159, aarch64: 171 },
  clock_adjtime: { x86_64: 305, aarch64: 266 },
  sethostname: { x86_64: 170, aarch64: 161 },
  setdomainname: { x86_64: 171, aarch64: 162 },
  vhangup: { x86_64: 153, aarch64: 58 },
  nfsservctl: { x86_64: 180, aarch64: 42 },
  uselib: { x86_64: 134, aarch64: null },
  _sysctl: { x86_64: 156, aarch64: null },
  create_module: { x86_64: 174, aarch64: null },
  get_kernel_syms: { x86_64: 177, aarch64: null },
  query_module: { x86_64: 178, aarch64: null },
};

/** Calls whose arguments decide, and clone3, whose flags sit in memory a filter cannot read:
 * ENOSYS makes the C library fall back to clone, whose flags it can. */
export const ARGUMENT_CHECKED = {
  clone: { x86_64: 56, aarch64: 220 },
  personality: { x86_64: 135, aarch64: 92 },
  clone3: { x86_64: 435, aarch64: 435 },
} as const satisfies Record<string, Record<SeccompArch, number>>;

const AUDIT_ARCH: Record<SeccompArch, number> = {
  x86_64: AUDIT_ARCH_X86_64,
  aarch64: AUDIT_ARCH_AARCH64,
};

/** One instruction; a jump names its targets by label until assembled. */
interface Op {
  code: number;
  k: number;
  jt?: string;
  jf?: string;
}

/** Assembles labelled instructions into `struct sock_filter` bytes (8 each, little-endian). */
function assemble(ops: (Op | { label: string })[]): Buffer {
  const code = ops.filter((op): op is Op => "code" in op);
  const at = new Map<string, number>();
  let index = 0;
  for (const op of ops) {
    if ("label" in op) at.set(op.label, index);
    else index += 1;
  }
  const offset = (from: number, label: string | undefined): number => {
    if (label === undefined) return 0;
    const to = at.get(label);
    if (to === undefined) throw new Error(`seccomp: no label ${label}`);
    const jump = to - from - 1;
    // Classic BPF jumps only forward, by at most 255 instructions.
    if (jump < 0 || jump > 255) throw new Error(`seccomp: jump to ${label} out of range`);
    return jump;
  };
  const out = Buffer.alloc(code.length * 8);
  code.forEach((op, i) => {
    out.writeUInt16LE(op.code, i * 8);
    out.writeUInt8(offset(i, op.jt), i * 8 + 2);
    out.writeUInt8(offset(i, op.jf), i * 8 + 3);
    out.writeUInt32LE(op.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The architecture the runner (and so every sandbox) runs on, or null where none is known. */
export function hostSeccompArch(arch: string = process.arch): SeccompArch | null {
  if (arch === "x64") return "x86_64";
  if (arch === "arm64") return "aarch64";
  return null;
}

/** The filter for `arch`, as bytes for bubblewrap's `--seccomp`. */
export function seccompProgram(arch: SeccompArch): Buffer {
  const denied = Object.values(DENIED)
    .map((numbers) => numbers[arch])
    .filter((nr): nr is number => nr !== null);
  const ld = (k: number): Op => ({ code: LD_W_ABS, k });
  const ret = (k: number): Op => ({ code: RET_K, k });
  return assemble([
    ld(DATA.arch),
    { code: JMP_JEQ_K, k: AUDIT_ARCH[arch], jf: "kill" },
    ld(DATA.nr),
    // x32 calls carry the x86_64 arch value but their own numbers.
    ...(arch === "x86_64" ? [{ code: JMP_JGE_K, k: X32_SYSCALL_BIT, jt: "deny" }] : []),
    ...denied.map((nr): Op => ({ code: JMP_JEQ_K, k: nr, jt: "deny" })),
    { code: JMP_JEQ_K, k: ARGUMENT_CHECKED.clone[arch], jt: "clone" },
    { code: JMP_JEQ_K, k: ARGUMENT_CHECKED.personality[arch], jt: "personality" },
    { code: JMP_JEQ_K, k: ARGUMENT_CHECKED.clone3[arch], jt: "enosys" },
    ret(SECCOMP_RET_ALLOW),
    { label: "clone" },
    ld(DATA.arg0Low),
    { code: JMP_JSET_K, k: CLONE_NAMESPACE_FLAGS, jt: "deny" },
    ret(SECCOMP_RET_ALLOW),
    { label: "personality" },
    ld(DATA.arg0Low),
    ...PERSONALITY_ALLOWED.map((value): Op => ({ code: JMP_JEQ_K, k: value, jt: "allow" })),
    { label: "deny" },
    ret(SECCOMP_RET_ERRNO | EPERM),
    { label: "allow" },
    ret(SECCOMP_RET_ALLOW),
    { label: "enosys" },
    ret(SECCOMP_RET_ERRNO | ENOSYS),
    { label: "kill" },
    ret(SECCOMP_RET_KILL_PROCESS),
  ]);
}
