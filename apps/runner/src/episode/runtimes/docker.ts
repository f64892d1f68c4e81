// The docker runtime: each runnable's `image` (its `run` argv as the command), one container per
// runnable, on a network of the episode's own. It reuses the process machinery: the `docker run`
// client is the started process, its output is the container's log.
import { randomBytes } from "node:crypto";
import { chmod } from "node:fs/promises";

import { spawnGroup } from "./process.ts";
import type {
  EpisodeLayout,
  RunnableSpec,
  Runtime,
  RuntimeOptions,
  StartedRunnable,
} from "./runtime.ts";

const GAME_PORT = 8080;
const WORK_DIR_IN_CONTAINER = "/episode";
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

export interface DockerNames {
  network: string;
  container: (runnable: string) => string;
}

export function dockerNames(episode: string): DockerNames {
  return {
    network: `gauntlet-${episode}`,
    container: (runnable) => `gauntlet-${episode}-${runnable}`,
  };
}

/**
 * `docker run` arguments for one runnable. Values of the environment stay out of argv (where
 * `ps` would show them): `-e NAME` copies each from the client's environment, which
 * dockerRunEnv() fills.
 */
export function dockerRunArgs(spec: RunnableSpec, names: DockerNames, workDir: string): string[] {
  const game = spec.name === "game";
  const args = [
    "run",
    "--rm",
    "--init",
    "--name",
    names.container(spec.name),
    "--network",
    names.network,
  ];
  args.push("--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--pids-limit", "512");
  if (game) args.push("--network-alias", "game", "--publish", `127.0.0.1::${GAME_PORT}`);
  if (spec.mountsWorkDir) args.push("--volume", `${workDir}:${WORK_DIR_IN_CONTAINER}`);
  for (const name of Object.keys(spec.env).sort())
    args.push("--env", CLIENT_ENV.includes(name) ? `${name}=${spec.env[name] ?? ""}` : name);
  args.push(spec.image ?? "");
  args.push(...(spec.run ?? []));
  return args;
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

/** Runs a docker command to its end and returns its output; throws on a non-zero exit. */
async function docker(args: string[], options: RuntimeOptions): Promise<string> {
  const command = spawnGroup(["docker", ...args], { cwd: "/", env: clientEnv({}), ...options });
  const status = await command.exited;
  await command.stop();
  if (status.code !== 0)
    throw new Error(`docker ${args[0] ?? ""} failed: ${status.error ?? command.log().trim()}`);
  return command.log();
}

export function dockerRuntime(options: RuntimeOptions): Runtime {
  const names = dockerNames(randomBytes(6).toString("hex"));
  const containers: string[] = [];
  let workDir = "";
  let gameUrl: string | undefined;
  return {
    kind: "docker",
    unusable: (spec) => (spec.image === undefined ? "the docker runtime needs an `image`" : null),
    async layout(dir: string): Promise<EpisodeLayout> {
      workDir = dir;
      // The game's user inside its image is unknown: let it write its outputs.
      await chmod(dir, 0o777);
      await docker(["network", "create", names.network], options);
      return {
        gameHost: "0.0.0.0",
        gamePort: GAME_PORT,
        workDirForGame: WORK_DIR_IN_CONTAINER,
        playerBaseUrl: `ws://game:${GAME_PORT}`,
      };
    },
    async start(spec): Promise<StartedRunnable> {
      const container = names.container(spec.name);
      containers.push(container);
      const client = spawnGroup(["docker", ...dockerRunArgs(spec, names, workDir)], {
        cwd: "/",
        env: clientEnv(spec.env),
        ...options,
      });
      return {
        pid: client.pid,
        exited: client.exited,
        log: () => client.log(),
        async stop() {
          await docker(["rm", "--force", container], options).catch(() => "");
          await client.stop();
        },
      };
    },
    async gameUrl() {
      // Known once the container exists; asked for until then.
      gameUrl ??= `http://${(await docker(["port", names.container("game"), `${GAME_PORT}/tcp`], options)).trim().split("\n")[0] ?? ""}`;
      return gameUrl;
    },
    async dispose() {
      await Promise.all(
        containers.map((c) => docker(["rm", "--force", c], options).catch(() => "")),
      );
      await docker(["network", "rm", names.network], options).catch(() => "");
    },
  };
}
