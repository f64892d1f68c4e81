// A descriptor the runner inherited without close-on-exec (a shell's `exec 40>file`, a parent's
// pipe) must not reach a sandboxed program: Node's spawn closes none, bubblewrap neither, and
// dash cannot close a descriptor of two digits. Here the runner runs in a child process that
// inherits descriptor 40 open on a canary file; the game and a player list their descriptors
// and every one visible in their box, and try to read the canary through descriptor 40.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, describe, expect, it } from "vitest";

import { sandboxProblem } from "./sandbox-probe.ts";

const problem = process.geteuid?.() !== 0 ? "not root" : await sandboxProblem();
if (problem !== null) console.warn(`sandbox inherited-fd test skipped: ${problem}`);

const INHERITED_FD = 40;
const canary = `canary-fd-${randomBytes(12).toString("hex")}`;
const dir = mkdtempSync(join(tmpdir(), "gauntlet-fd-test-"));
const canaryFile = join(dir, `${canary}.txt`);
writeFileSync(canaryFile, canary);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a program in the box reports: its own descriptors, then every visible one's target. */
const probe = [
  // Listed by a child shell into a file: a redirection or command substitution of this shell
  // would add a descriptor of its own.
  "sh -c 'ls /proc/$PPID/fd > /tmp/fds'",
  'echo "OWN $(sort -n /tmp/fds | tr "\\n" " ")"',
  `echo "READ $(cat /proc/$$/fd/${INHERITED_FD} 2>&1)"`,
  'echo "ALL $(ls -l /proc/[0-9]*/fd/ 2>&1 | tr "\\n" " ")"',
].join("; ");

const here = import.meta.dirname;
/** Runs an episode whose `role` is the probe; prints the outcome as JSON. */
const episodeScript = (role: "game" | "player") => `
import { runEpisode } from ${JSON.stringify(pathToFileURL(join(here, "../run-episode.ts")).href)};
import { bundledPlayer, gridrushEpisode, gridrushManifest, removeWorkDirs } from ${JSON.stringify(pathToFileURL(join(here, "../../../testing/episodes.ts")).href)};
const manifest = gridrushManifest();
const probe = ["/bin/sh", "-c", ${JSON.stringify(`${probe}; sleep 60`)}];
const game = ${JSON.stringify(role)} === "game";
const { input } = gridrushEpisode({
  runtime: "sandbox",
  healthTimeoutMs: 5_000,
  manifest: game ? { ...manifest, game: { ...manifest.game, runnable: { ...manifest.game.runnable, run: probe } } } : manifest,
  players: game
    ? [bundledPlayer(manifest, "greedy"), bundledPlayer(manifest, "random")]
    : [{ runnable: { run: probe }, cwd: bundledPlayer(manifest, "greedy").cwd }, bundledPlayer(manifest, "random")],
  gameConfig: { width: 5, height: 5, turns: 3, coins: 2, connect_timeout_ms: 5_000 },
});
const outcome = await runEpisode(input);
removeWorkDirs();
console.log(JSON.stringify(outcome));
`;

/** The log of the probing runnable, from a runner that inherited INHERITED_FD on the canary. */
async function probeLog(role: "game" | "player"): Promise<string> {
  // A shell opens it and becomes the runner: a descriptor inherited as a shell passes it on.
  const child = spawn(
    "/bin/bash",
    [
      "-c",
      `exec ${INHERITED_FD}<"$1"; exec "$0" --input-type=module -e "$2"`,
      process.execPath,
      canaryFile,
      episodeScript(role),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise((resolve) => child.once("close", resolve));
  expect(code).toBe(0);
  const outcome = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
    gameLog: string;
    playerLogs: string[];
  };
  return role === "game" ? outcome.gameLog : (outcome.playerLogs[0] ?? "");
}

describe.skipIf(problem !== null)("a descriptor the runner inherited", () => {
  it.for(["game", "player"] as const)(
    "reaches no %s: it starts with 0, 1 and 2 alone and cannot read the file",
    { timeout: 60_000 },
    async (role) => {
      const log = await probeLog(role);
      // Not vacuous: the probe ran and reported.
      expect(log).toMatch(/^OWN /m);
      expect(/^OWN (.*)$/m.exec(log)?.[1]?.trim()).toBe("0 1 2");
      expect(log).toMatch(/^READ .*No such file/m);
      expect(log).toMatch(/^ALL /m);
      expect(log).not.toContain(canary);
    },
  );
});
