// For the docker runtime's tests: an engine that answers (tooling/scripts/ensure-docker.sh
// installs and starts one where it can), the offline base image, and GridRush's image from it.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

import { gridrushDir, gridrushManifest } from "../test-support.ts";
import { buildScript } from "./docker-base-image.ts";

const ensureScript = join(import.meta.dirname, "../../../../../tooling/scripts/ensure-docker.sh");

/** Null when an engine answers (started if need be); otherwise why not, in one line. */
export function dockerEngineProblem(): string | null {
  const ensured = spawnSync(ensureScript, { encoding: "utf8", timeout: 300_000 });
  if (ensured.status === 0) return null;
  const why = `${ensured.stderr}`.trim().split("\n").at(-1) ?? "";
  return why || `ensure-docker.sh ended with ${ensured.status ?? ensured.signal ?? "?"}`;
}

/** Runs docker to its end; throws with its output when it fails. */
export function dockerSync(args: string[]): string {
  const result = spawnSync("docker", args, { encoding: "utf8", timeout: 300_000 });
  if (result.status !== 0)
    throw new Error(`docker ${args.join(" ")}: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** The base image for the Node running the tests, and GridRush's image built FROM it. */
export function buildGridrushImage(): string {
  const built = spawnSync(buildScript, [process.execPath], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`the base image did not build: ${built.stderr}`);
  const base = built.stdout.trim();
  const tag = gridrushManifest().game.runnable.image ?? "";
  dockerSync(["build", "-q", "--build-arg", `BASE_IMAGE=${base}`, "-t", tag, gridrushDir]);
  return tag;
}

/** What the episode in `workDir` left behind of its containers and network (must be nothing). */
export function leftovers(workDir: string): string[] {
  const label = `label=org.gauntlet.work-dir=${workDir}`;
  const containers = dockerSync(["ps", "-aq", "--filter", label]);
  const networks = dockerSync(["network", "ls", "-q", "--filter", label]);
  return `${containers}\n${networks}`.split("\n").filter((line) => line.trim() !== "");
}
