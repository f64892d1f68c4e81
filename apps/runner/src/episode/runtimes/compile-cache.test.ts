import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterEach, describe, expect, it } from "vitest";

import { sweepTempRoots } from "../temp-root.ts";
import { CACHE_INSIDE, compileCacheFor } from "./compile-cache.ts";

const roots: string[] = [];
async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gauntlet-cache-test-"));
  roots.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of roots.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The host directory a mount binds, and whether it is read-only. */
function mounted(binds: string[]): { dir: string; readOnly: boolean } {
  expect(binds[2]).toBe(CACHE_INSIDE);
  return { dir: binds[1] ?? "", readOnly: binds[0] === "--ro-bind" };
}

describe("compileCacheFor", () => {
  it("gives a runnable's first run a cache of its own to write, and later runs it read-only", async () => {
    const root = await scratch();
    const first = await compileCacheFor("policy-version p1", root);
    const written = mounted(first.binds);
    expect(written.readOnly).toBe(false);
    expect(first.quota).toMatchObject({ dir: written.dir, bytes: 64 * 1024 * 1024, entries: 4096 });
    await mkdir(join(written.dir, "v24-x64"));
    await writeFile(join(written.dir, "v24-x64", "entry"), "compiled");
    await first.settle(true);
    const later = await compileCacheFor("policy-version p1", root);
    const kept = mounted(later.binds);
    expect(kept.readOnly).toBe(true);
    expect(later.quota).toBeNull();
    expect(await readdir(join(kept.dir, "v24-x64"))).toEqual(["entry"]);
  });

  it("never gives two runnables one cache, whatever their files", async () => {
    const root = await scratch();
    const game = await compileCacheFor("coworld c1 1.0 sha game", root);
    await game.settle(true);
    for (const other of ["coworld c1 1.0 sha player greedy", "policy-version p2 sha"]) {
      const cache = await compileCacheFor(other, root);
      expect(mounted(cache.binds).readOnly).toBe(false);
      expect(mounted(cache.binds).dir).not.toBe(mounted(game.binds).dir);
    }
  });

  it("keeps nothing of a run over its quota, and one first run of two at once", async () => {
    const root = await scratch();
    const dropped = await compileCacheFor("policy-version p3", root);
    await dropped.settle(false);
    expect((await readdir(root)).filter((name) => !name.startsWith("."))).toEqual([]);
    const a = await compileCacheFor("policy-version p4", root);
    const b = await compileCacheFor("policy-version p4", root);
    await mkdir(join(mounted(a.binds).dir, "from-a"));
    await mkdir(join(mounted(b.binds).dir, "from-b"));
    await a.settle(true);
    await b.settle(true);
    const kept = await compileCacheFor("policy-version p4", root);
    expect(await readdir(mounted(kept.binds).dir)).toEqual(["from-a"]);
    expect((await readdir(root)).filter((name) => name.startsWith("."))).toEqual([]);
  });

  // A policy left 60 MiB of its own in its first run's cache, and links, kept on the runner's
  // disk for good.
  it("keeps only what Node writes: a program's own files or links are dropped", async () => {
    const root = await scratch();
    for (const [identity, plant] of [
      ["policy-version p5", (dir: string) => writeFile(join(dir, "blob"), "x")],
      ["policy-version p6", (dir: string) => symlink("/", join(dir, "v24-x64"))],
    ] as const) {
      const first = await compileCacheFor(identity, root);
      await plant(mounted(first.binds).dir);
      await first.settle(true);
      expect(mounted((await compileCacheFor(identity, root)).binds).readOnly).toBe(false);
    }
    expect((await readdir(root)).filter((name) => !name.startsWith("."))).toEqual([]);
  });

  // A runner killed during a first run left its cache folder, with what the program wrote in it,
  // in the caches' folder for good: no sweep looked there.
  it("leaves a killed runner's first run to the next runner's sweep", async () => {
    const tmp = await scratch();
    const root = join(tmp, "caches");
    const module = pathToFileURL(join(import.meta.dirname, "compile-cache.ts")).href;
    const script = `
      import { writeFile } from "node:fs/promises";
      import { join } from "node:path";
      import { compileCacheFor } from ${JSON.stringify(module)};
      const first = await compileCacheFor("policy-version p7", ${JSON.stringify(root)});
      await writeFile(join(first.binds[1], "written"), "by the program");
      console.log(first.binds[1]);
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const fresh = await new Promise<string>((resolve) =>
      child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
    );
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("close", resolve));
    expect(existsSync(join(fresh, "written"))).toBe(true);

    await sweepTempRoots(tmp);

    expect(existsSync(fresh)).toBe(false);
    expect(await readdir(root)).toEqual([]);
  });
});
