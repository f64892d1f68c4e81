// The docker runtime: each runnable's `image` (its `run` argv as the command), one container per
// runnable, on internal networks on which the host has no address (so no container reaches the
// host, the server or anything else): the game (or a coworld's commissioner, which runs as the
// game without the work directory) and the relay on the episode's network, and each player on a
// network of its seat's own that only the game and the relay join (so players reach the game,
// not each other). The runner reaches the episode only
// through its relay (docker-relay.ts) and the Unix sockets it shares with it. It reuses the
// process machinery: the `docker run` client is the started process, its output the container's log.
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdir, stat } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";

import { bestEffort } from "@gauntlet/core";

import { makeTempDir } from "../temp-root.ts";
import { EPISODE_DIR_MAX_ENTRIES, overQuota, type DirQuota } from "./dir-quota.ts";
import { ensureNodeBaseImage } from "./docker-base-image.ts";
import type { LimitHit } from "./limits.ts";
import { delay, spawnGroup } from "./process.ts";
import { removeTree } from "./remove-tree.ts";
import type {
  EpisodeLayout,
  ExitStatus,
  RunnableSpec,
  Runtime,
  RuntimeOptions,
  StartedRunnable,
} from "./runtime.ts";

const GAME_PORT = 8080;
const RELAY_PORT = 9000;
const WORK_DIR_IN_CONTAINER = "/episode";
const RELAY_SCRIPT = join(import.meta.dirname, "docker-relay.ts");
/** What the docker client itself needs from the runner's environment. */
const CLIENT_ENV = [
  "PATH",
  "HOME",
  "DOCKER_HOST",
  "DOCKER_CONTEXT",
  "DOCKER_CONFIG",
  "DOCKER_CERT_PATH",
  "DOCKER_TLS_VERIFY",
];

/** What each container of an episode may use. */
export interface ContainerLimits {
  memoryBytes: number;
  /** Processes and threads, together. */
  pids: number;
  cpus: number;
  /** CPU time of any one process, in seconds (RLIMIT_CPU, as on the sandbox): past it the kernel
   * ends the process and the episode fails as `resource_limit`, blamed on its seat. */
  cpuSeconds: number;
  /** The size of its writable scratch (`/tmp`, a tmpfs; the rest of its file system is read-only). */
  scratchBytes: number;
  /** What the game may write into the episode directory (results, replay), in all. */
  outputBytes: number;
  /** `uid:gid`, never root. A runner that is not root runs the game as its own uid instead
   * (the game's work directory is the runner's, and no one else's). */
  user: string;
}

export const DEFAULT_CONTAINER_LIMITS: ContainerLimits = {
  memoryBytes: 512 << 20,
  pids: 128,
  cpus: 1,
  cpuSeconds: 600,
  scratchBytes: 64 << 20,
  outputBytes: 256 << 20,
  // A uid no account of the host is likely to have: it owns the game's work directory while the
  // game runs, and the directory is no one else's (0700).
  user: "65532:65532",
};

export interface DockerNames {
  /** The game's and the relay's network. */
  network: string;
  /** A player's network: its own, which the game and the relay join. */
  seatNetwork: (runnable: string) => string;
  container: (runnable: string) => string;
}

export function dockerNames(episode: string): DockerNames {
  return {
    network: `gauntlet-${episode}`,
    seatNetwork: (runnable) => `gauntlet-${episode}-${runnable}-net`,
    container: (runnable) => `gauntlet-${episode}-${runnable}`,
  };
}

/** How often the game's episode directory is measured against its quota. */
const QUOTA_POLL_MS = 1_000;

/** What a process killed by SIGXCPU (its CPU time rlimit) exits with, through `--init`. */
const SIGXCPU_EXIT = 128 + 24;

/** The hardening every container of an episode gets, the runner's relay included. The label
 * names the episode's work directory: what a killed runner left is found by it. */
function confinement(limits: ContainerLimits, workDir: string): string[] {
  return [
    "--read-only",
    "--tmpfs",
    `/tmp:rw,nosuid,nodev,noexec,size=${limits.scratchBytes},mode=1777`,
    "--user",
    limits.user,
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    "--pids-limit",
    String(limits.pids),
    // Swap as large as the memory: none, so the limit is the limit.
    "--memory",
    String(limits.memoryBytes),
    "--memory-swap",
    String(limits.memoryBytes),
    "--cpus",
    String(limits.cpus),
    "--ulimit",
    "core=0",
    // SIGXCPU at the soft limit ends a process that does not handle it; SIGKILL at the hard one.
    "--ulimit",
    `cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 5}`,
    "--ulimit",
    "nofile=1024:1024",
    "--label",
    "org.gauntlet.runner=episode",
    "--label",
    `org.gauntlet.work-dir=${workDir}`,
    // The runner keeps the output it needs (capped) from the attached client; the engine's own
    // log file of a container has no cap, and a flood of output would fill the host's disk.
    "--log-driver",
    "none",
  ];
}

/**
 * `docker run` arguments for one runnable. Values of the environment stay out of argv (where
 * `ps` would show them): `-e NAME` copies each from the client's environment, which
 * clientEnv() fills. No `--rm`: the container is inspected (was it killed for memory?) and
 * removed by the runtime.
 */
export function dockerRunArgs(
  spec: RunnableSpec,
  names: DockerNames,
  workDir: string,
  limits: ContainerLimits = DEFAULT_CONTAINER_LIMITS,
): string[] {
  const args = ["run", "--init", "--name", names.container(spec.name)];
  // The listener (an episode's game, or a commissioner: `game` without the work directory) is on
  // the episode's network with the relay; a player is alone on its seat's network with the game
  // and the relay.
  const listener = spec.name === "game";
  const network = listener ? names.network : names.seatNetwork(spec.name);
  args.push("--network", network, ...confinement(limits, workDir));
  if (listener) args.push("--network-alias", "game");
  if (spec.mountsWorkDir) args.push("--volume", `${workDir}:${WORK_DIR_IN_CONTAINER}`);
  for (const name of Object.keys(spec.env).sort())
    args.push("--env", CLIENT_ENV.includes(name) ? `${name}=${spec.env[name] ?? ""}` : name);
  args.push(spec.image ?? "");
  args.push(...(spec.run ?? []));
  return args;
}

/** The relay's container: the runner's own code, read-only, with the socket directory. */
export function relayRunArgs(
  names: DockerNames,
  socketDir: string,
  image: string,
  workDir: string,
  limits: ContainerLimits = DEFAULT_CONTAINER_LIMITS,
): string[] {
  return [
    "run",
    "--init",
    "--name",
    names.container("relay"),
    "--network",
    names.network,
    "--network-alias",
    "relay",
    ...confinement({ ...limits, memoryBytes: 128 << 20, pids: 32, cpus: 0.5 }, workDir),
    "--volume",
    `${socketDir}:/sockets`,
    "--volume",
    `${RELAY_SCRIPT}:/relay/relay.ts:ro`,
    "--env",
    `RELAY_PORT=${RELAY_PORT}`,
    "--env",
    `RELAY_GAME_PORT=${GAME_PORT}`,
    image,
    "node",
    "/relay/relay.ts",
  ];
}

/** The docker client's environment: what it needs, plus the values its `--env NAME` copy. */
function clientEnv(runnableEnv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of CLIENT_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(runnableEnv))
    if (!CLIENT_ENV.includes(name)) env[name] = value;
  return env;
}

/** A docker command that did not succeed; `noClient` when there is no docker client to run. */
class DockerCommandError extends Error {
  override readonly name = "DockerCommandError";
  readonly noClient: boolean;
  constructor(message: string, noClient: boolean) {
    super(message);
    this.noClient = noClient;
  }
}

/** Runs a docker command to its end and returns its output; throws on a non-zero exit. */
async function docker(args: string[], options: RuntimeOptions): Promise<string> {
  const command = spawnGroup(["docker", ...args], { cwd: "/", env: clientEnv({}), ...options });
  const status = await command.exited;
  await command.stop();
  if (status.code !== 0)
    throw new DockerCommandError(
      `docker ${args[0] ?? ""} failed: ${status.error ?? command.log().trim()}`,
      // The spawn's own error ("spawn docker ENOENT"): no docker client on this machine.
      status.error !== undefined && /\bENOENT\b/.test(status.error),
    );
  return command.log();
}

/** A loopback TCP port whose connections are piped to a Unix socket (the relay's game.sock). */
async function loopbackTo(socketPath: string): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    const upstream = connect(socketPath);
    socket.pipe(upstream);
    upstream.pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  return { server, port: typeof address === "object" && address !== null ? address.port : 0 };
}

/**
 * Removes the containers and the network of the episode that ran in `workDir`, for a runner
 * that was killed before its episodes' dispose(); ending the `docker run` clients' process
 * groups does not end their containers. Nothing happens where there is no docker client; where
 * docker does not answer it throws: a policy's container may still be running, and the caller
 * keeps the record to try again.
 */
export async function removeEpisodeLeftovers(
  workDir: string,
  options: RuntimeOptions = { logCapBytes: 1 << 16, killGraceMs: 500 },
): Promise<number> {
  const label = `label=org.gauntlet.work-dir=${workDir}`;
  const list = async (args: string[]) =>
    (await docker(args, options)).split("\n").filter((id) => /^\w+$/.test(id));
  let containers: string[];
  try {
    containers = await list(["ps", "-aq", "--filter", label]);
  } catch (error) {
    if (error instanceof DockerCommandError && error.noClient) return 0;
    throw error;
  }
  if (containers.length > 0) await docker(["rm", "--force", ...containers], options);
  const networks = await list(["network", "ls", "-q", "--filter", label]);
  if (networks.length > 0) await docker(["network", "rm", ...networks], options);
  return containers.length;
}

export function dockerRuntime(
  options: RuntimeOptions & { limits?: Partial<ContainerLimits> | undefined },
): Runtime {
  const limits = { ...DEFAULT_CONTAINER_LIMITS, ...options.limits };
  const names = dockerNames(randomBytes(6).toString("hex"));
  /** Containers started and not yet removed. */
  const containers = new Set<string>();
  let workDir = "";
  /** Who the game runs as: the owner of its work directory. */
  let gameUser = limits.user;
  let hostDir = "";
  let socketDir = "";
  let forwarder: Server | null = null;
  let gamePortOnHost = 0;
  let relay: StartedRunnable | null = null;
  /** Networks made and not yet removed: the episode's, then one per player. */
  const networks: string[] = [];
  const createNetwork = async (network: string) => {
    await docker(
      [
        "network",
        "create",
        "--internal",
        "--opt",
        "com.docker.network.bridge.inhibit_ipv4=true",
        "--label",
        "org.gauntlet.runner=episode",
        "--label",
        `org.gauntlet.work-dir=${workDir}`,
        network,
      ],
      options,
    );
    networks.push(network);
  };

  const run = (
    name: string,
    args: string[],
    env: Record<string, string>,
    quotas: DirQuota[] = [],
  ): StartedRunnable => {
    const container = names.container(name);
    containers.add(container);
    const client = spawnGroup(["docker", ...args], { cwd: "/", env: clientEnv(env), ...options });
    // The container stays until stop(): its state tells whether its memory limit ended it.
    const exited = client.exited.then(async (status): Promise<ExitStatus> => {
      if (status.error !== undefined) return status;
      // Docker not answering leaves the exit status as it is: the same seat is blamed, only
      // without naming its memory limit.
      const oomKilled = await docker(
        ["inspect", "--format", "{{.State.OOMKilled}}", container],
        options,
      ).then(
        (state) => state.trim() === "true",
        () => false,
      );
      return oomKilled ? { ...status, limit: "out_of_memory" } : status;
    });
    // As on the sandbox: a runnable ended by its CPU time limit, or one that writes more than
    // its quota into a host directory it mounts (polled every second), ends the episode.
    const limitHit = new Promise<LimitHit>((resolve) => {
      // An object, so that the loop reads it anew each time.
      const state = { running: true };
      void exited.then((status) => {
        state.running = false;
        if (status.code === SIGXCPU_EXIT)
          resolve({
            error_type: "resource_limit",
            what: `used more than its ${limits.cpuSeconds} s of CPU time`,
          });
      });
      if (quotas.length > 0)
        void (async () => {
          while (state.running) {
            await delay(QUOTA_POLL_MS);
            const over = await overQuota(quotas);
            if (over !== null) return resolve(over);
          }
        })();
    });
    return {
      pid: client.pid,
      exited,
      limitHit,
      log: () => client.log(),
      async stop() {
        // One docker fails to remove stays in the set: dispose() tries again.
        await bestEffort(
          docker(["rm", "--force", container], options).then(() => containers.delete(container)),
        );
        await client.stop();
      },
    };
  };

  return {
    kind: "docker",
    unusable: (spec) => (spec.image === undefined ? "the docker runtime needs an `image`" : null),
    async layout(dir: string): Promise<EpisodeLayout> {
      workDir = dir;
      // The game writes its outputs there, and no one else may (not another account of the
      // host, which could forge results): the directory is the game's user's alone.
      const uid = process.getuid?.();
      const gid = process.getgid?.();
      if (uid === 0) {
        const [user, group] = limits.user.split(":").map(Number);
        await chown(dir, user ?? 65532, group ?? user ?? 65532);
      } else if (uid !== undefined && gid !== undefined) gameUser = `${uid}:${gid}`;
      await chmod(dir, 0o700);
      // Outside the work directory, which the game can write: it must not swap the sockets.
      hostDir = await makeTempDir("docker-");
      socketDir = join(hostDir, "sockets");
      await mkdir(socketDir, { mode: 0o777 });
      await chmod(socketDir, 0o777);
      const image = await ensureNodeBaseImage();
      await createNetwork(names.network);
      relay = run("relay", relayRunArgs(names, socketDir, image, workDir, limits), {});
      const loopback = await loopbackTo(join(socketDir, "game.sock"));
      forwarder = loopback.server;
      gamePortOnHost = loopback.port;
      return {
        gameHost: "0.0.0.0",
        gamePort: GAME_PORT,
        workDirForGame: WORK_DIR_IN_CONTAINER,
        playerBaseUrl: `ws://game:${GAME_PORT}`,
        artifacts: {
          socketPath: join(socketDir, "artifacts.sock"),
          baseUrl: `http://relay:${RELAY_PORT}`,
        },
      };
    },
    async start(spec): Promise<StartedRunnable> {
      const user = spec.mountsWorkDir ? gameUser : limits.user;
      if (spec.name !== "game") {
        // The seat's own network, joined by the game (started and healthy by now) and the relay
        // (its artifact uploads) under the names players know them by.
        const network = names.seatNetwork(spec.name);
        await createNetwork(network);
        await Promise.all(
          ["game", "relay"].map((runnable) =>
            docker(
              ["network", "connect", "--alias", runnable, network, names.container(runnable)],
              options,
            ),
          ),
        );
      }
      const args = dockerRunArgs(spec, names, workDir, { ...limits, user });
      const quotas: DirQuota[] = spec.mountsWorkDir
        ? [
            {
              dir: workDir,
              bytes: limits.outputBytes,
              entries: EPISODE_DIR_MAX_ENTRIES,
              what: "the episode directory",
            },
          ]
        : [];
      return run(spec.name, args, spec.env, quotas);
    },
    async gameUrl() {
      // Known once the relay listens; asked for until then.
      const status = await Promise.race([relay?.exited, delay(0).then(() => null)]);
      if (status) throw new Error("the docker runtime's relay exited");
      await stat(join(socketDir, "game.sock"));
      return `http://127.0.0.1:${gamePortOnHost}`;
    },
    async dispose() {
      forwarder?.close();
      await relay?.stop();
      // Those whose stop() was not called (or failed): removed all the same. What docker fails
      // to remove here, the next runner's sweep finds by its label (removeEpisodeLeftovers).
      await Promise.all(
        [...containers].map((c) => bestEffort(docker(["rm", "--force", c], options))),
      );
      const made = networks.splice(0);
      if (made.length > 0) await bestEffort(docker(["network", "rm", ...made], options));
      if (hostDir !== "") await removeTree(hostDir);
    },
  };
}
