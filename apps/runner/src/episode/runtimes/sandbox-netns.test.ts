// The sandbox in a runner started under `ip netns exec`, which mounts a fresh /sys with no cgroup
// tree: the episode runs on rlimits alone, where the runner once spun before its first sandbox.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Why this machine cannot make a network namespace, or null when it can. */
function netnsProblem(): string | null {
  if (process.geteuid?.() !== 0) return "not root";
  try {
    execFileSync("ip", ["netns", "list"], { stdio: "ignore" });
  } catch {
    return "no `ip netns`";
  }
  return null;
}

const problem = netnsProblem();
if (problem !== null) console.warn(`sandbox netns test skipped: ${problem}`);

const here = import.meta.dirname;
/** Runs one sandboxed GridRush episode and prints its status (and error, if any) as JSON. */
const episodeScript = `
import { runEpisode } from ${JSON.stringify(pathToFileURL(join(here, "../run-episode.ts")).href)};
import { gridrushEpisode, removeWorkDirs } from ${JSON.stringify(pathToFileURL(join(here, "../../../testing/episodes.ts")).href)};
import { cgroupsProblem } from ${JSON.stringify(pathToFileURL(join(here, "limits.ts")).href)};
console.log(JSON.stringify({ missing: await cgroupsProblem() }));
const { input } = gridrushEpisode({ runtime: "sandbox" });
const outcome = await runEpisode(input);
removeWorkDirs();
console.log(JSON.stringify({ status: outcome.status, error: outcome.status === "failed" ? outcome.error : undefined }));
`;

/** Runs `argv` to its end, or kills it after `limitMs`; its stdout and whether it was killed. */
function runFor(argv: string[], limitMs: number): Promise<{ stdout: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const [program = "", ...args] = argv;
    const child = spawn(program, args, { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, limitMs);
    child.once("error", reject);
    child.once("close", () => {
      clearTimeout(timer);
      resolve({ stdout, killed });
    });
  });
}

describe.skipIf(problem !== null)("the sandbox under `ip netns exec`", () => {
  const name = `gauntlet-test-${randomBytes(4).toString("hex")}`;

  beforeAll(() => {
    execFileSync("ip", ["netns", "add", name]);
    execFileSync("ip", ["-n", name, "link", "set", "lo", "up"]);
  });
  afterAll(() => {
    execFileSync("ip", ["netns", "delete", name]);
  });

  it("runs a GridRush episode on rlimits alone when /sys has no cgroup tree", async () => {
    // Generous for a loaded machine: the episode itself takes about a second.
    const { stdout, killed } = await runFor(
      ["ip", "netns", "exec", name, process.execPath, "--input-type=module", "-e", episodeScript],
      90_000,
    );
    expect(killed, "the episode never ended").toBe(false);
    const [missing, outcome] = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    // What the runner warns of at its start.
    expect(missing).toEqual({
      missing: expect.stringMatching(
        /^no cgroups can be made .*memory and process count will not be limited/,
      ),
    });
    expect(outcome).toEqual({ status: "completed" });
  }, 120_000);
});
