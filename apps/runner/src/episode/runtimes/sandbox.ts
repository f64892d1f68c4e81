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
// first process shows its command line to everything inside. The command line is
// sandbox-command.ts, the first process's script sandbox-init.ts, the runner's looks into a
// sandbox's namespace sandbox-namespace.ts, the ways out sandbox-relay.ts, and whether a sandbox
// can start here sandbox-probe.ts.
import { closeSync, constants, fstatSync, lstatSync, openSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

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
import {
  ARGS_FD,
  baseBwrapArgs,
  HOLD_FD,
  INSIDE,
  launcher,
  nulSeparated,
  READ_ONLY_AT_LAST,
  SECCOMP,
} from "./sandbox-command.ts";
import { INIT_SHELL, initScript, type Forward } from "./sandbox-init.ts";
import { insidePid, listensIn } from "./sandbox-namespace.ts";
import { listenOn, pipeBoth } from "./sandbox-relay.ts";
import { treeUsage } from "./tree-usage.ts";

export const GAME_PORT = 8080;

/** O_PATH: a handle on the game's socket file that a later rename or symlink cannot redirect. */
const O_PATH = 0o10000000;
const LIMIT_POLL_MS = 200;
/** The game's socket directory holds its socket: a little room for a game's own, no more. */
const SOCKET_DIR_MAX = { bytes: 1024 * 1024, entries: 16 };

export interface SandboxOptions extends RuntimeOptions {
  limits: SandboxLimits;
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
