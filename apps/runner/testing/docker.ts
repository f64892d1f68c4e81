// For the docker runtime's tests: an engine that answers (tooling/scripts/ensure-docker.sh
// installs and starts one where it can), the offline base image, and GridRush's image from it.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { buildScript } from "../src/episode/runtimes/docker-base-image.ts";
import { gridrushDir, gridrushManifest } from "./episodes.ts";

const ensureScript = join(import.meta.dirname, "../../../tooling/scripts/ensure-docker.sh");

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

/** The base image for the Node running the tests; its tag. */
function buildBaseImage(): string {
  const built = spawnSync(buildScript, [process.execPath], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`the base image did not build: ${built.stderr}`);
  return built.stdout.trim();
}

/** The base image for the Node running the tests, and GridRush's image built FROM it. */
export function buildGridrushImage(): string {
  const base = buildBaseImage();
  const tag = gridrushManifest().game.runnable.image ?? "";
  dockerSync(["build", "-q", "--build-arg", `BASE_IMAGE=${base}`, "-t", tag, gridrushDir]);
  return tag;
}

export const COMMISSIONER_IMAGE = "gauntlet/test-commissioner:latest";
/** The server's tests' commissioner fixture (Node built-ins only): by path, as the server's
 * testing index would bring the whole server into a unit test. */
const COMMISSIONER_FIXTURE = join(
  import.meta.dirname,
  "../../server/testing/commissioner-fixture.ts",
);

/** The commissioner fixture (apps/server/testing/commissioner-fixture.ts) as an image that runs it. */
export function buildCommissionerImage(): string {
  const dir = mkdtempSync(join(tmpdir(), "gauntlet-commissioner-image-"));
  try {
    copyFileSync(COMMISSIONER_FIXTURE, join(dir, "fixture.ts"));
    writeFileSync(
      join(dir, "Dockerfile"),
      [
        "ARG BASE_IMAGE",
        "FROM ${BASE_IMAGE}",
        "COPY fixture.ts /commissioner/fixture.ts",
        'CMD ["node", "/commissioner/fixture.ts"]',
        "",
      ].join("\n"),
    );
    dockerSync([
      "build",
      "-q",
      "--build-arg",
      `BASE_IMAGE=${buildBaseImage()}`,
      "-t",
      COMMISSIONER_IMAGE,
      dir,
    ]);
    return COMMISSIONER_IMAGE;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const HOSTILE_IMAGE = "gauntlet/test-hostile:latest";

/** The escape suite's hostile runnable (docker-escape-fixture/), on GridRush's image. */
export function buildHostileImage(): string {
  const gridrush = buildGridrushImage();
  const fixture = join(import.meta.dirname, "../src/episode/runtimes/docker-escape-fixture");
  dockerSync([
    "build",
    "-q",
    "--build-arg",
    `BASE_IMAGE=${gridrush}`,
    "-t",
    HOSTILE_IMAGE,
    fixture,
  ]);
  return HOSTILE_IMAGE;
}

/** The containers and networks of episodes in `dir` or under it still there (must be none). */
export function leftovers(dir: string): string[] {
  const label = "label=org.gauntlet.runner=episode";
  const format = '{{.ID}} {{.Label "org.gauntlet.work-dir"}}';
  const listed = [
    dockerSync(["ps", "-a", "--filter", label, "--format", format]),
    dockerSync(["network", "ls", "--filter", label, "--format", format]),
  ].join("\n");
  return listed.split("\n").filter((line) => {
    const workDir = line.slice(line.indexOf(" ") + 1);
    return line.trim() !== "" && (workDir === dir || workDir.startsWith(`${dir}/`));
  });
}
