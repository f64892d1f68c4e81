import { spawnSync } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { removeTree } from "./remove-tree.ts";
import { treeUsage } from "./tree-usage.ts";

const NOBODY = 65534;
const dirs: string[] = [];

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gauntlet-tree-"));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) {
    spawnSync("chmod", ["-R", "u+rwx", dir]);
    await rm(dir, { recursive: true, force: true });
  }
});

describe("treeUsage", () => {
  it("adds up the files of nested folders, and a directory that is gone is empty", async () => {
    const dir = await scratch();
    await mkdir(join(dir, "a/b"), { recursive: true });
    await writeFile(join(dir, "one"), Buffer.alloc(1000));
    await writeFile(join(dir, "a/b/two"), Buffer.alloc(2500));
    expect(await treeUsage(dir)).toEqual({ bytes: 3500, entries: 4 });
    expect(await treeUsage(join(dir, "missing"))).toEqual({ bytes: 0, entries: 0 });
  });

  // The quota used to count bytes only: 200,000 empty files were free.
  it("counts entries of every kind, and stops once past the cap", async () => {
    const dir = await scratch();
    for (let i = 0; i < 50; i += 1) await writeFile(join(dir, `empty-${i}`), "");
    expect((await treeUsage(dir)).entries).toBe(50);
    expect((await treeUsage(dir, 10)).entries).toBe(11);
  });

  it("counts a link as a link and never follows it", async () => {
    const dir = await scratch();
    const outside = await scratch();
    await writeFile(join(outside, "big"), Buffer.alloc(100_000));
    await symlink(outside, join(dir, "to-outside"));
    await symlink(join(outside, "big"), join(dir, "to-big"));
    expect(await treeUsage(dir)).toEqual({ bytes: 0, entries: 2 });
  });

  // A non-root runner owns what its sandboxes write, yet cannot list a folder a program made
  // mode 000: the walk used to read that as 0 bytes, so the quota never ended the run and the
  // program could fill the host's disk through its cache. Run as an unprivileged owner.
  it.runIf(process.geteuid?.() === 0)(
    "counts a folder its unprivileged owner cannot list, instead of reading it as empty",
    async () => {
      const dir = await scratch();
      await chmod(dir, 0o755);
      const hidden = join(dir, "hidden");
      await mkdir(hidden);
      await writeFile(join(hidden, "big"), Buffer.alloc(4096));
      for (const path of [dir, hidden, join(hidden, "big")]) await chown(path, NOBODY, NOBODY);
      await chmod(hidden, 0o000);

      const probe = `import { treeUsage } from ${JSON.stringify(join(import.meta.dirname, "tree-usage.ts"))};
        console.log((await treeUsage(${JSON.stringify(dir)})).bytes);`;
      const run = spawnSync(
        "setpriv",
        [
          `--reuid=${NOBODY}`,
          `--regid=${NOBODY}`,
          "--clear-groups",
          process.execPath,
          "--input-type=module",
          "-e",
          probe,
        ],
        { encoding: "utf8" },
      );
      expect(run.stderr).toBe("");
      expect(run.stdout.trim()).toBe("4096");
    },
  );
});

describe("removeTree", () => {
  it("removes a tree without following its links, and a path that is gone is no error", async () => {
    const dir = await scratch();
    const outside = await scratch();
    await writeFile(join(outside, "canary"), "host file");
    await mkdir(join(dir, "a/b"), { recursive: true });
    await symlink(outside, join(dir, "a/b/link"));
    await symlink(outside, join(dir, "top-link"));
    await removeTree(dir);
    await removeTree(dir);
    expect(await treeUsage(dir)).toEqual({ bytes: 0, entries: 0 });
    expect(await treeUsage(outside)).toEqual({ bytes: 9, entries: 1 });
  });
});
