// The seccomp program, run through a classic-BPF interpreter written here from the kernel's
// rules (what the kernel would decide for a call), and checked against numbers read from
// Linux's syscall tables by hand. The kernel itself runs it in the escape suite.
import { describe, expect, it } from "vitest";

import {
  AUDIT_ARCH_AARCH64,
  AUDIT_ARCH_X86_64,
  DENIED,
  ENOSYS,
  EPERM,
  hostSeccompArch,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
  seccompProgram,
  type SeccompArch,
} from "./seccomp.ts";

const AUDIT_ARCH_I386 = 0x40000003;
const AUDIT_ARCH_ARM = 0x40000028;
const BPF_MAXINSNS = 4096;

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

function decode(program: Buffer): Insn[] {
  const out: Insn[] = [];
  for (let i = 0; i < program.length; i += 8)
    out.push({
      code: program.readUInt16LE(i),
      jt: program.readUInt8(i + 2),
      jf: program.readUInt8(i + 3),
      k: program.readUInt32LE(i + 4),
    });
  return out;
}

/** What the filter returns for one call: `struct seccomp_data` as the kernel lays it out. */
function run(program: Buffer, call: { arch: number; nr: number; arg0?: bigint }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  data.writeBigUInt64LE(call.arg0 ?? 0n, 16);
  const insns = decode(program);
  let a = 0;
  for (let pc = 0; pc < insns.length; pc += 1) {
    const insn = insns[pc];
    if (insn === undefined) break;
    switch (insn.code) {
      case 0x20: // ld [k]
        a = data.readUInt32LE(insn.k);
        break;
      case 0x15: // jeq #k
        pc += a === insn.k ? insn.jt : insn.jf;
        break;
      case 0x35: // jge #k
        pc += a >>> 0 >= insn.k ? insn.jt : insn.jf;
        break;
      case 0x45: // jset #k
        pc += (a & insn.k) !== 0 ? insn.jt : insn.jf;
        break;
      case 0x06: // ret #k
        return insn.k;
      default:
        throw new Error(`unexpected opcode ${insn.code.toString(16)} at ${pc}`);
    }
  }
  throw new Error("fell off the end of the program");
}

const ERRNO = (errno: number) => (SECCOMP_RET_ERRNO | errno) >>> 0;
const ALLOW = SECCOMP_RET_ALLOW;
const KILL = SECCOMP_RET_KILL_PROCESS;

// Numbers from arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h.
const TABLE = {
  x86_64: {
    arch: AUDIT_ARCH_X86_64,
    foreign: [AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64],
    denied: { ptrace: 101, unshare: 272, setns: 308, mount: 165, bpf: 321, io_uring_setup: 425 },
    // What every program (Node, a shell, socat) needs: none may be denied.
    ordinary: {
      read: 0,
      write: 1,
      close: 3,
      mmap: 9,
      nanosleep: 35,
      execve: 59,
      futex: 202,
      epoll_wait: 232,
      openat: 257,
    },
    clone: 56,
    clone3: 435,
    personality: 135,
  },
  aarch64: {
    arch: AUDIT_ARCH_AARCH64,
    foreign: [AUDIT_ARCH_ARM, AUDIT_ARCH_X86_64],
    denied: { ptrace: 117, unshare: 97, setns: 268, mount: 40, bpf: 280, io_uring_setup: 425 },
    ordinary: {
      openat: 56,
      close: 57,
      read: 63,
      write: 64,
      futex: 98,
      nanosleep: 101,
      execve: 221,
      mmap: 222,
      epoll_pwait: 22,
    },
    clone: 220,
    clone3: 435,
    personality: 92,
  },
} as const;

describe.each(["x86_64", "aarch64"] as const)("the seccomp filter for %s", (arch: SeccompArch) => {
  const program = seccompProgram(arch);
  const table = TABLE[arch];
  const call = (nr: number, arg0?: bigint) => run(program, { arch: table.arch, nr, arg0 });

  it("is a well-formed classic-BPF program that checks the architecture first", () => {
    expect(program.length % 8).toBe(0);
    const insns = decode(program);
    expect(insns.length).toBeLessThan(BPF_MAXINSNS);
    expect(insns[0]).toEqual({ code: 0x20, jt: 0, jf: 0, k: 4 });
    expect(insns.at(-1)?.code).toBe(0x06);
    // Every jump lands inside the program.
    insns.forEach((insn, pc) => {
      if ((insn.code & 0x07) === 0x05) {
        expect(pc + 1 + insn.jt).toBeLessThan(insns.length);
        expect(pc + 1 + insn.jf).toBeLessThan(insns.length);
      }
    });
  });

  it("kills a call made through another architecture's entry", () => {
    for (const foreign of table.foreign) expect(run(program, { arch: foreign, nr: 0 })).toBe(KILL);
  });

  it("refuses the dangerous calls with EPERM, by the numbers of Linux's table", () => {
    for (const [name, nr] of Object.entries(table.denied)) {
      expect(DENIED[name]?.[arch], name).toBe(nr);
      expect(call(nr), name).toBe(ERRNO(EPERM));
    }
    for (const [name, numbers] of Object.entries(DENIED)) {
      const nr = numbers[arch];
      if (nr !== null) expect(call(nr), name).toBe(ERRNO(EPERM));
    }
  });

  it("lets through what ordinary programs need", () => {
    for (const [name, nr] of Object.entries(table.ordinary)) expect(call(nr), name).toBe(ALLOW);
    const denied = new Set(Object.values(DENIED).map((n) => n[arch]));
    for (const nr of Object.values(table.ordinary)) expect(denied.has(nr)).toBe(false);
  });

  it("allows clone for threads and processes but not for new namespaces", () => {
    // pthread_create's flags (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | …).
    expect(call(table.clone, 0x3d0f00n)).toBe(ALLOW);
    // fork: SIGCHLD only.
    expect(call(table.clone, 17n)).toBe(ALLOW);
    for (const flag of [0x10000000n, 0x40000000n, 0x20000000n, 0x00020000n])
      expect(call(table.clone, 17n | flag)).toBe(ERRNO(EPERM));
    // clone3's flags are in memory the filter cannot read: ENOSYS sends libc back to clone.
    expect(call(table.clone3)).toBe(ERRNO(ENOSYS));
  });

  it("allows querying and the plain personalities, not turning off address randomization", () => {
    expect(call(table.personality, 0xffffffffn)).toBe(ALLOW);
    expect(call(table.personality, 0n)).toBe(ALLOW);
    expect(call(table.personality, 0x0040000n)).toBe(ERRNO(EPERM));
  });
});

describe("the x32 ABI on x86_64", () => {
  it("is refused: its calls carry the x86_64 arch value but other numbers", () => {
    const program = seccompProgram("x86_64");
    // x32's read (0x40000000 | 0) and an x32 number that is allowed on x86_64 (getpid, 39).
    for (const nr of [0x40000000, 0x40000000 | 39])
      expect(run(program, { arch: AUDIT_ARCH_X86_64, nr })).toBe(ERRNO(EPERM));
  });
});

describe("hostSeccompArch", () => {
  it("names the filter of Node's architecture, and none for others", () => {
    expect(hostSeccompArch("x64")).toBe("x86_64");
    expect(hostSeccompArch("arm64")).toBe("aarch64");
    expect(hostSeccompArch("riscv64")).toBeNull();
  });
});
