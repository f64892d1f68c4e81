import { spawnSync } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { quotaBytes } from "./quota-bytes.ts";

const NOBODY = 65534;
const dirs: string[] = [];

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gauntlet-quota-"));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) {
    spawnSync("chmod", ["-R", "u+rwx", dir]);
    await rm(dir, { recursive: true, force: true });
  }
});

describe("quotaBytes", () => {
  it("adds up the files of nested folders, and a directory that is gone is empty", async () => {
    const dir = await scratch();
    await mkdir(join(dir, "a/b"), { recursive: true });
    await writeFile(join(dir, "one"), Buffer.alloc(1000));
    await writeFile(join(dir, "a/b/two"), Buffer.alloc(2500));
    expect(await quotaBytes(dir)).toBe(3500);
    expect(await quotaBytes(join(dir, "missing"))).toBe(0);
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

      const probe = `import { quotaBytes } from ${JSON.stringify(join(import.meta.dirname, "quota-bytes.ts"))};
        console.log(await quotaBytes(${JSON.stringify(dir)}));`;
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
