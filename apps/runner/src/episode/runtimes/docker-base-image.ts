// The offline base image (tooling/scripts/build-node-base-image.sh): Node and the libraries it
// links, a non-root user, nothing else. The docker runtime runs its relay from it, and images
// such as GridRush's build FROM it. Built once per engine and Node version, then reused by tag.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const buildScript = join(
  import.meta.dirname,
  "../../../../../tooling/scripts/build-node-base-image.sh",
);

/** The tag for a Node version: `gauntlet/node-base:<version>`. */
export function nodeBaseTag(version = process.versions.node): string {
  return `gauntlet/node-base:${version}`;
}

let building: Promise<string> | null = null;

/**
 * The tag of the base image for this runner's own Node, building it from `process.execPath`
 * when the engine does not have it. One build per process, however many ask at once.
 */
export function ensureNodeBaseImage(): Promise<string> {
  building ??= (async () => {
    const tag = nodeBaseTag();
    try {
      await run("docker", ["image", "inspect", "--format", "{{.Id}}", tag]);
      return tag;
    } catch {
      const { stdout } = await run(buildScript, [process.execPath], { timeout: 300_000 });
      return stdout.trim() || tag;
    }
  })();
  // A failed build is tried again by the next caller, not remembered.
  building.catch(() => (building = null));
  return building;
}
