// A runner killed with SIGKILL leaves its temporary trees (a sandbox's binds, whose folders the
// sandbox wrote) under the temp directory; the next runner's start removes those of every
// process that has ended — following no link planted in them — and leaves a live one's alone.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { chown, mkdir, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, describe, expect, it } from "vitest";

import { procInfo } from "../worker/proc.ts";
import { sweepTempRoots } from "./temp-root.ts";

const tmp = mkdtempSync(join(tmpdir(), "gauntlet-temp-roots-"));
/** Files outside every root that a planted link points to: they must survive. */
const canaryDir = mkdtempSync(join(tmpdir(), "gauntlet-temp-canary-"));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(canaryDir, { recursive: true, force: true });
});

async function deadPid(): Promise<number> {
  const child = spawn("true");
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid ?? 999_999;
}

/** A root as a runner's process leaves it: an owner, a sandbox's tree with links planted in it. */
async function root(name: string, owner: object | null): Promise<string> {
  const dir = join(tmp, name);
  await mkdir(join(dir, "sb-x1y2z3", "game"), { recursive: true });
  if (owner !== null) await writeFile(join(dir, "owner.json"), JSON.stringify(owner));
  await symlink(canaryDir, join(dir, "sb-x1y2z3", "game", "escape"));
  await symlink(join(canaryDir, "keep"), join(dir, "sb-x1y2z3", "game", "keep-link"));
  return dir;
}

describe("sweepTempRoots", () => {
  it("removes a dead runner's root without following its links, and keeps a live one's", async () => {
    await writeFile(join(canaryDir, "keep"), "host file");
    const dead = await root("gsb-dead01", { pid: await deadPid(), start_time: 1 });
    const self = procInfo(process.pid)?.startTime ?? null;
    const live = await root("gsb-live01", { pid: process.pid, start_time: self });
    // Its pid now another process's: the start time tells.
    const reused = await root("gsb-reuse1", { pid: process.pid, start_time: (self ?? 0) + 1 });

    const removed = await sweepTempRoots(tmp);

    expect(removed).toBe(2);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(reused)).toBe(false);
    expect(existsSync(join(live, "sb-x1y2z3", "game", "escape"))).toBe(true);
    expect(readdirSync(canaryDir)).toEqual(["keep"]);
    expect(readFileSync(join(canaryDir, "keep"), "utf8")).toBe("host file");
  });

  it("removes roots of earlier runners, which record no owner, only once a day old", async () => {
    const young = await root("gsb-young1", null);
    const old = await root("gsb-old001", null);
    const oldDocker = await root("gauntlet-docker-old001", null);
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    for (const dir of [old, oldDocker]) await utimes(dir, dayAgo, dayAgo);
    const other = await root("gauntlet-episode-old001", null);
    await utimes(other, dayAgo, dayAgo);

    await sweepTempRoots(tmp);

    expect(existsSync(young)).toBe(true);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(oldDocker)).toBe(false);
    // Not a runner's.
    expect(existsSync(other)).toBe(true);
  });

  it.runIf(process.geteuid?.() === 0)("leaves another user's roots alone", async () => {
    const theirs = await root("gsb-other1", { pid: await deadPid(), start_time: 1 });
    await chown(theirs, 65534, 65534);

    await sweepTempRoots(tmp);

    expect(existsSync(theirs)).toBe(true);
  });

  it("makes a process's trees in a root that records it, kept by a sweep, gone at a clean exit", async () => {
    const own = mkdtempSync(join(tmp, "own-"));
    const script = `
      import { readFileSync } from "node:fs";
      import { dirname, join } from "node:path";
      import { makeTempDir, sweepTempRoots } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, "temp-root.ts")).href)};
      const made = await makeTempDir("sb-");
      const owner = JSON.parse(readFileSync(join(dirname(made), "owner.json"), "utf8"));
      const swept = await sweepTempRoots();
      await import("node:fs/promises").then((fs) => fs.rmdir(made));
      console.log(JSON.stringify({ made, owner, swept, pid: process.pid }));
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: own },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(code).toBe(0);
    const seen = JSON.parse(out) as {
      made: string;
      owner: { pid: number };
      swept: number;
      pid: number;
    };
    expect(basename(dirname(seen.made))).toMatch(/^gsb-/);
    expect(dirname(dirname(seen.made))).toBe(own);
    expect(seen.owner.pid).toBe(seen.pid);
    expect(seen.swept).toBe(0);
    expect(readdirSync(own)).toEqual([]);
  });
});
