// The sandbox runtime, the default: each runnable (the game, each player) in a sandbox of its own
// made by bubblewrap (Linux user, mount, pid, ipc, uts and network namespaces). Inside it sees a
// read-only /usr, the runner's Node, its own files and a size-capped /tmp; nothing else of the
// host. Its network is its own loopback: the only ways out are Unix sockets the runner binds in,
// bridged to loopback ports by socat, started by a few lines of shell before the runnable —
//   game:    /run/gauntlet/net/game.sock  → 127.0.0.1:8080 (the game's port, in its sandbox)
//   player:  127.0.0.1:8080               → /run/gauntlet/seat/game.sock, a socket the runner
//            serves in a directory only that seat sees (read-only), piped to the game's socket;
//            and one socket per address the seat may reach (its artifact upload, a human seat's
//            relay) beside it, piped by the runner too. The runner so learns when it last heard
//            from the seat.
// The runner itself reaches the game (/healthz) through a loopback port of its own.
// The box's own root and /dev are read-only, /tmp and /dev/shm tmpfs of the scratch size.
// No writable place is shared by two programs or outlives its sandbox's episode: the game's
// socket directory is the game's alone (no seat mounts it), the episode directory the game's
// alone, /tmp a tmpfs of each sandbox's own; a compile cache is one runnable's own, written by
// its first run only and read-only afterwards (compile-cache.ts). What the runner reads back from those directories is data, never code, read
// without following links (tree-usage.ts, episode-files.ts), and they are removed only once
// every process of the sandbox has ended, by a walk that follows no link (remove-tree.ts).
// bubblewrap's options, host paths among them, reach it on a pipe (`--args`): the sandbox's
// first process shows its command line to everything inside.
import { spawn } from "node:child_process";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
} from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

import { unlessGone } from "@gauntlet/core";

import { makeTempDir } from "../temp-root.ts";
import { CACHE_INSIDE, compileCacheFor, type CompileCacheMount } from "./compile-cache.ts";
import type { CpuUsage } from "./cpu-share.ts";
import { EPISODE_DIR_MAX_ENTRIES, overQuota, type DirQuota } from "./dir-quota.ts";
import { createCgroups, type Cgroups, type LimitHit, type SandboxLimits } from "./limits.ts";
import { spawnGroup } from "./process.ts";
import { removeTree } from "./remove-tree.ts";
import type {
  EpisodeLayout,
  RunnableSpec,
  Runtime,
  RuntimeOptions,
  StartedRunnable,
} from "./runtime.ts";
import { hostSeccompArch, seccompProgram } from "./seccomp.ts";
import { treeUsage } from "./tree-usage.ts";

export const GAME_PORT = 8080;
const SANDBOX_ID = 65534;
const INSIDE = {
  node: "/run/gauntlet/bin/node",
  path: "/run/gauntlet/bin:/usr/local/bin:/usr/bin:/bin",
  net: "/run/gauntlet/net",
  seat: "/run/gauntlet/seat",
  files: "/bundle",
  episode: "/episode",
};

/** One way out of a sandbox: where it accepts inside, and where each connection goes. */
interface Forward {
  listen: { port: number } | { path: string };
  to: { port: number } | { path: string };
}

/**
 * The sandbox's first process: a shell that starts a socat per forward (trusted, but with the
 * runnable's rights: a runnable that kills one only cuts its own connections), waits until each
 * TCP one listens, then becomes the runnable (`exec`), so its exit and signals are the runnable's.
 * The wait counts the namespace's listening TCP sockets in /proc/net/sockstat — nothing but the
 * socats makes one before the runnable starts — with shell builtins, and sleeps 5 ms after a
 * look that fails: no busy loop and no process but that `sleep`, so the CPU goes to socat and the
 * runnable. (Not /proc/net/tcp: a read of it walks the host's whole TCP hash, ~4 ms of CPU.)
 */
export function initScript(forwards: Forward[], holdFd: number | null = null): string {
  // Every descriptor above 2 but the hold pipe is closed first: the runner's pipes to bubblewrap,
  // and any the runner itself inherited without close-on-exec (Node's spawn and bubblewrap close
  // none), which would reach socat and the runnable. bash, not dash: dash cannot close a
  // descriptor of two digits. /proc/self is bash itself while it expands the glob.
  const keep = holdFd === null ? "" : ` && [ "$fd" != ${holdFd} ]`;
  const lines = [
    "set -e",
    `for fd in /proc/self/fd/*; do fd=\${fd##*/}; if [ "$fd" -gt 2 ]${keep}; then exec {fd}<&-; fi; done`,
  ];
  let ports = 0;
  for (const forward of forwards) {
    const listen =
      "port" in forward.listen
        ? `TCP-LISTEN:${forward.listen.port},bind=127.0.0.1,fork,reuseaddr`
        : `UNIX-LISTEN:${forward.listen.path},fork`;
    const to =
      "port" in forward.to ? `TCP:127.0.0.1:${forward.to.port}` : `UNIX-CONNECT:${forward.to.path}`;
    // The hold pipe is the shell's alone.
    const closeHold = holdFd === null ? "" : ` ${holdFd}<&-`;
    lines.push(`socat ${listen} ${to} 2>/dev/null${closeHold} &`);
    if ("port" in forward.listen) ports += 1;
  }
  if (ports > 0)
    lines.push(
      'up() { while read -r k _ n _; do [ "$k" = TCP: ] && { [ "$n" -ge "$1" ]; return; }; done </proc/net/sockstat; return 1; }',
      `i=0; until up ${ports}; do i=$((i+1)); [ $i -lt 2000 ] || exit 126; sleep 0.005; done`,
    );
  // Held: the box is ready; the runnable starts on the runner's word ("go"), else never.
  if (holdFd !== null)
    lines.push(`read -r go <&${holdFd} || :`, `exec ${holdFd}<&-`, '[ "$go" = go ] || exit 0');
  lines.push('exec "$@"');
  return lines.join("\n");
}
/**
 * How many TCP sockets (v4 and v6) are hashed — listening or connected — in the network
 * namespace of `pid`; null when its counters cannot be read. A look costs a few counters; read
 * synchronously (a /proc file never blocks): asked every 5 ms while a game boots, a promise and a
 * thread-pool trip per read cost the runner more than the read itself.
 */
function tcpInUse(pid: number): number | null {
  let total: number | null = null;
  for (const [file, key] of [
    ["sockstat", "TCP:"],
    ["sockstat6", "TCP6:"],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${file}`, "utf8");
    } catch {
      continue;
    }
    const line = text.split("\n").find((l) => l.startsWith(`${key} inuse `));
    if (line === undefined) continue;
    total = (total ?? 0) + (Number(line.split(" ")[2]) || 0);
  }
  return total;
}

/**
 * Whether a TCP socket listens on `port` (any address) in the network namespace of `pid`; null
 * when its tables are gone (the process has exited; then the runner cannot tell). Any other
 * failure to read them rejects.
 */
async function listensIn(pid: number, port: number): Promise<boolean | null> {
  // The tables cost a walk of the host's whole TCP hash (~4 ms of CPU each, every namespace
  // alike): read them only once the namespace has a TCP socket at all, which the game's
  // listen() is the first to make.
  if (tcpInUse(pid) === 0) return false;
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let read = false;
  for (const table of ["tcp", "tcp6"]) {
    const text = await unlessGone(readFile(`/proc/${pid}/net/${table}`, "utf8"));
    if (text === null) continue;
    read = true;
    for (const line of text.split("\n")) {
      const [, local = "", , state] = line.trim().split(/\s+/);
      if (state === "0A" && local.endsWith(hex)) return true;
    }
  }
  return read ? false : null;
}

/**
 * A process inside the sandbox that `pid` (bubblewrap, outside) made: its first child; null
 * before it has one, undefined where the kernel does not list children (then nobody can tell).
 */
async function insidePid(pid: number): Promise<number | null | undefined> {
  // ENOENT both where the process has gone and where the kernel keeps no list of children.
  const children = await unlessGone(readFile(`/proc/${pid}/task/${pid}/children`, "utf8"));
  if (children === null) return undefined;
  const first = Number(children.trim().split(/\s+/)[0]);
  return Number.isInteger(first) && first > 0 ? first : null;
}

/** The sandbox's first process: bash, which can close any descriptor (initScript). */
const INIT_SHELL = "/bin/bash";

/** O_PATH: a handle on the game's socket file that a later rename or symlink cannot redirect. */
const O_PATH = 0o10000000;
const LIMIT_POLL_MS = 200;
/** The game's socket directory holds its socket: a little room for a game's own, no more. */
const SOCKET_DIR_MAX = { bytes: 1024 * 1024, entries: 16 };

export interface SandboxOptions extends RuntimeOptions {
  limits: SandboxLimits;
}

function isRoot(): boolean {
  return process.geteuid?.() === 0;
}

/** The host's top-level directories a dynamically linked program needs, as they are here. */
function systemView(): string[] {
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
const arch = hostSeccompArch();
const SECCOMP: Buffer | null = arch === null ? null : seccompProgram(arch);
/** The descriptor bubblewrap reads the filter from: spawn's first extra pipe. */
const SECCOMP_FD = 3;
/** The descriptor bubblewrap reads its options from (`--args`): spawn's second extra pipe. */
const ARGS_FD = 4;
/** The descriptor a held sandbox's first shell reads "go" from: spawn's third extra pipe. */
const HOLD_FD = 5;

/** The last options: bubblewrap's own tmpfs (the root, /dev) read-only, all mounts made. */
const READ_ONLY_AT_LAST = ["--remount-ro", "/dev", "--remount-ro", "/"];

/** Options as `--args` reads them: each ended by a NUL. */
function nulSeparated(args: string[]): Buffer {
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

let probe: Promise<string | null> | null = null;

/**
 * Why no sandbox can start on this machine (bubblewrap missing, user namespaces off), in one
 * line, or null when one can. Asked once per process.
 */
export function sandboxProblem(options: { fresh?: boolean } = {}): Promise<string | null> {
  if (options.fresh === true) probe = null;
  probe ??= new Promise((resolve) => {
    if (SECCOMP === null)
      return resolve(
        `the sandbox cannot start here: no seccomp filter for the ${process.arch} architecture`,
      );
    const child = spawn(
      "bwrap",
      [
        ...baseBwrapArgs({ ...defaultProbeLimits }),
        "/bin/sh",
        "-c",
        `[ -x ${INIT_SHELL} ] || { echo "bash is not installed" >&2; exit 1; }; command -v socat >/dev/null || { echo "socat is not installed" >&2; exit 1; }; ${INSIDE.node} -e ""`,
      ],
      { env: {}, timeout: 20_000, stdio: ["ignore", "ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const filter = child.stdio[SECCOMP_FD];
    if (filter !== null && filter !== undefined && "end" in filter) {
      filter.on("error", () => undefined);
      filter.end(SECCOMP);
    }
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve(
        `the sandbox cannot start here: ${error.code === "ENOENT" ? "bubblewrap (bwrap) is not installed" : error.message}`,
      ),
    );
    child.once("close", (code, signal) => {
      if (code === 0) return resolve(null);
      const why = stderr.trim().split("\n")[0] || `bwrap exited with ${code ?? signal}`;
      resolve(`the sandbox cannot start here: ${why}`);
    });
  });
  return probe;
}

const defaultProbeLimits: SandboxLimits = {
  memoryBytes: 0,
  pids: 0,
  cpuSeconds: 0,
  openFiles: 0,
  scratchBytes: 1024 * 1024,
  outputBytes: 0,
};

/** Pipes two connections into each other; `open` holds both until either ends. */
function pipeBoth(a: Socket, b: Socket, open: Set<Socket>): void {
  open.add(a).add(b);
  a.pipe(b);
  b.pipe(a);
  const fail = () => {
    a.destroy();
    b.destroy();
  };
  // One side gone: the other is ended gracefully, so what was already sent still arrives.
  const closed = (other: Socket, self: Socket) => () => {
    open.delete(self);
    other.end();
  };
  a.on("error", fail).on("close", closed(b, a));
  b.on("error", fail).on("close", closed(a, b));
}

async function listenOn(server: Server, where: string | number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (typeof where === "number") server.listen(where, "127.0.0.1", resolve);
    else server.listen(where, resolve);
  });
}

export function sandboxRuntime(options: SandboxOptions): Runtime {
  const servers: Server[] = [];
  const open = new Set<Socket>();
  const cgroups: Cgroups[] = [];
  const caches: CompileCacheMount[] = [];
  let root = "";
  let workDir = "";
  let gameSocketFd: number | null = null;
  let proxyPort = 0;

  /** A connection to the game's socket; the file is checked once and then held by handle. */
  const connectGame = (): Socket => {
    if (gameSocketFd === null) {
      const path = join(root, "game", "game.sock");
      // The game owns its socket directory: a symlink there must not send us anywhere else.
      if (lstatSync(path, { throwIfNoEntry: false })?.isSocket() === true) {
        const fd = openSync(path, O_PATH | constants.O_NOFOLLOW);
        if (fstatSync(fd).isSocket()) gameSocketFd = fd;
        else closeSync(fd);
      }
    }
    if (gameSocketFd === null) {
      const socket = createConnection("/nonexistent/gauntlet-game.sock");
      return socket;
    }
    return createConnection(`/proc/self/fd/${gameSocketFd}`);
  };

  /** Serves `where` (a socket in a seat's directory) by piping each connection to `connect`'s;
   * `heard` is told whenever the seat sends anything. */
  const serve = async (where: string, connect: () => Socket, heard?: () => void): Promise<void> => {
    const server = createServer((client) => {
      client.on("error", () => undefined);
      if (heard !== undefined) client.on("data", heard);
      pipeBoth(client, connect(), open);
    });
    servers.push(server);
    await listenOn(server, where);
  };

  return {
    kind: "sandbox",
    holds: true,
    unusable: (spec) => (spec.run === undefined ? "the sandbox runtime needs a `run` argv" : null),
    async layout(dir: string): Promise<EpisodeLayout> {
      workDir = dir;
      // In the process's own temp folder (temp-root.ts): short, for a Unix socket's path has room
      // for 107 bytes; random, for the sandbox sees it in mountinfo; swept if the runner dies.
      root = await makeTempDir("sb-");
      await mkdir(join(root, "game"), { mode: 0o700 });
      const proxy = createServer((client) => {
        client.on("error", () => undefined);
        pipeBoth(client, connectGame(), open);
      });
      servers.push(proxy);
      await listenOn(proxy, 0);
      const address = proxy.address();
      proxyPort = typeof address === "object" && address !== null ? address.port : 0;
      return {
        gameHost: "127.0.0.1",
        gamePort: GAME_PORT,
        workDirForGame: INSIDE.episode,
        playerBaseUrl: `ws://127.0.0.1:${GAME_PORT}`,
      };
    },
    async start(spec: RunnableSpec): Promise<StartedRunnable> {
      const game = spec.name === "game";
      const binds: string[] = ["--ro-bind", spec.cwd, INSIDE.files, "--chdir", INSIDE.files];
      const forwards: Forward[] = [];
      // When the seat last sent the game anything (its wall clock blames the one silent longest).
      const heard: { at: number | null } = { at: null };
      if (game) {
        binds.push("--bind", join(root, "game"), INSIDE.net);
        forwards.push({ listen: { path: `${INSIDE.net}/game.sock` }, to: { port: GAME_PORT } });
      } else {
        const seat = join(root, spec.name.replace(/[^a-z0-9-]/gi, "_"));
        await mkdir(seat, { mode: 0o700 });
        // The seat reaches the game through the runner: the game's directory is the game's alone.
        await serve(join(seat, "game.sock"), connectGame, () => (heard.at = performance.now()));
        forwards.push({ listen: { port: GAME_PORT }, to: { path: `${INSIDE.seat}/game.sock` } });
        for (const target of spec.reach ?? []) {
          if (target.port === GAME_PORT) throw new Error(`port ${GAME_PORT} is the game's`);
          const name = `reach-${target.port}.sock`;
          await serve(join(seat, name), () => createConnection(target.port, target.host));
          forwards.push({ listen: { port: target.port }, to: { path: `${INSIDE.seat}/${name}` } });
        }
        binds.push("--ro-bind", seat, INSIDE.seat);
      }
      if (spec.mountsWorkDir) binds.push("--bind", workDir, INSIDE.episode);
      // Its own compile cache, if it is someone (compile-cache.ts): written by its first run only.
      const cache = spec.identity === undefined ? null : await compileCacheFor(spec.identity);
      if (cache !== null) {
        binds.push(...cache.binds);
        caches.push(cache);
      }
      // The host directories it may write, each with the bytes and entries it may not pass.
      const quotas: DirQuota[] = [
        ...(cache?.quota ? [cache.quota] : []),
        ...(game
          ? [
              { dir: join(root, "game"), ...SOCKET_DIR_MAX, what: "its socket directory" },
              ...(spec.mountsWorkDir
                ? [
                    {
                      dir: workDir,
                      bytes: options.limits.outputBytes,
                      entries: EPISODE_DIR_MAX_ENTRIES,
                      what: "the episode directory",
                    },
                  ]
                : []),
            ]
          : []),
      ];
      const [program, ...args] = spec.run ?? [];
      const argv = [program === "node" ? INSIDE.node : (program ?? ""), ...args];

      const groups = await createCgroups(spec.name, options.limits);
      if (groups !== null) cgroups.push(groups);
      const command = [
        ...launcher(options.limits, groups),
        "bwrap",
        "--args",
        String(ARGS_FD),
        INIT_SHELL,
        "-c",
        initScript(forwards, spec.hold === undefined ? null : HOLD_FD),
        "sandbox-init",
        ...argv,
      ];
      // The environment goes to bwrap (which passes it on), never into argv where ps shows it.
      const started = spawnGroup(command, {
        cwd: "/",
        env: {
          ...spec.env,
          PATH: INSIDE.path,
          HOME: "/tmp",
          ...(cache === null ? {} : { NODE_COMPILE_CACHE: CACHE_INSIDE }),
        },
        logCapBytes: options.logCapBytes,
        killGraceMs: options.killGraceMs,
        // The filter on fd 3 (never null here: sandboxProblem refuses a machine without one),
        // bubblewrap's options on fd 4, then, when held, the word to start on fd 5.
        extraInput: [
          SECCOMP ?? Buffer.alloc(0),
          nulSeparated([...baseBwrapArgs(options.limits), ...binds, ...READ_ONLY_AT_LAST]),
          ...(spec.hold === undefined
            ? []
            : [spec.hold.then((go) => Buffer.from(go ? "go\n" : ""))]),
        ],
      });

      let resolveHit: (hit: LimitHit) => void = () => {};
      const limitHit = new Promise<LimitHit>((resolve) => (resolveHit = resolve));
      // Set by the exit below: an object, so that the loop reads it anew each time.
      const state = { running: true };
      let polls = 0;
      const check = async (final = false): Promise<LimitHit | null> => {
        // While it runs: a seat's wait for a CPU (what tells a starved seat from an idle one),
        // and its weight by how much of its cap it uses.
        if (!final) await groups?.tickCpu();
        const hit = await groups?.hit();
        if (hit) {
          resolveHit(hit);
          return hit;
        }
        // Sizes cost a directory walk: every fifth poll (a second), and at the end.
        polls += 1;
        if (!final && polls % 5 !== 0) return null;
        const over = await overQuota(quotas);
        if (over !== null) resolveHit(over);
        return over;
      };
      void (async () => {
        while (state.running) {
          if ((await check()) !== null) {
            await started.stop();
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, LIMIT_POLL_MS));
        }
      })();
      // The CPU it used, read once it has exited (before its groups are removed).
      const cpu: { used: CpuUsage | null } = { used: null };
      const exited = started.exited.then(async (status) => {
        state.running = false;
        await check(true);
        cpu.used = (await groups?.cpuUsage()) ?? null;
        // bwrap reports a signal as 128 + n: SIGXCPU and SIGXFSZ are the CPU time and file size rlimits.
        if (status.code === 152)
          resolveHit({
            error_type: "resource_limit",
            what: `used more than its ${options.limits.cpuSeconds} s of CPU time`,
          });
        if (status.code === 153)
          resolveHit({
            error_type: "resource_limit",
            what: `wrote a file over its ${options.limits.scratchBytes}-byte limit`,
          });
        return status;
      });
      // The game's port as its own network namespace sees it, read from /proc: a look costs no
      // process, where a request through its bridge forks a socat in the booting game's box.
      const inside: { pid: number | null } = { pid: null };
      const listening = async (): Promise<boolean | null> => {
        if (started.pid === null || !state.running) return null;
        if (inside.pid === null) {
          const found = await insidePid(started.pid);
          // No list of children (a kernel without it): ask /healthz as on the other runtimes.
          if (found === undefined) return null;
          if (found === null) return false;
          inside.pid = found;
        }
        // Gone (null): the runner cannot tell, and asks /healthz as on the other runtimes.
        return listensIn(inside.pid, GAME_PORT);
      };
      return {
        pid: started.pid,
        exited,
        log: () => started.log(),
        limitHit,
        cpuUsage: () => cpu.used,
        ...(game ? { listening } : { lastHeard: () => heard.at }),
        async stop() {
          await started.stop();
          await exited;
          await groups?.remove();
        },
      };
    },
    gameUrl: async () => `http://127.0.0.1:${proxyPort}`,
    async dispose() {
      for (const socket of open) socket.destroy();
      open.clear();
      await Promise.all(
        servers.splice(0).map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
            }),
        ),
      );
      if (gameSocketFd !== null) closeSync(gameSocketFd);
      gameSocketFd = null;
      // Every process of every sandbox has ended (their groups are removed only once empty):
      // nothing writes the trees any more, and their removal follows no link in them.
      await Promise.all(cgroups.splice(0).map((groups) => groups.remove()));
      // A first run's cache is kept when it holds something and stayed within its quota.
      await Promise.all(
        caches.splice(0).map(async (cache) => {
          const quota = cache.quota;
          const used = quota === null ? null : await treeUsage(quota.dir, quota.entries);
          const keep =
            quota !== null &&
            used !== null &&
            used.entries > 0 &&
            used.entries <= quota.entries &&
            used.bytes <= quota.bytes;
          await cache.settle(keep);
        }),
      );
      if (root !== "") await removeTree(root);
    },
  };
}
