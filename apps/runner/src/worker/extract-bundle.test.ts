// Bundles come from other users: extraction must not write outside its directory.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";

import * as tar from "tar";
import { afterEach, describe, expect, it } from "vitest";

import { BundleError, extractBundle } from "./extract-bundle.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "gauntlet-extract-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function pack(
  cwd: string,
  paths: string[],
  options: { preservePaths?: boolean } = {},
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    tar.c(
      { gzip: true, cwd, portable: true, preservePaths: options.preservePaths ?? false },
      paths,
    ),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

describe("extractBundle", () => {
  it("extracts files and directories", async () => {
    const src = tempDir();
    mkdirSync(join(src, "game"));
    writeFileSync(join(src, "game", "server.ts"), "console.log('hi')");
    writeFileSync(join(src, "coworld_manifest.json"), "{}");
    const dest = join(tempDir(), "out");
    const result = await extractBundle(await pack(src, ["."]), dest);
    expect(result.files).toBe(2);
    expect(readFileSync(join(dest, "game", "server.ts"), "utf8")).toBe("console.log('hi')");
  });

  it("refuses a symbolic link, which could point anywhere", async () => {
    const src = tempDir();
    writeFileSync(join(src, "ok.txt"), "ok");
    symlinkSync("/etc/passwd", join(src, "passwd"));
    await expect(extractBundle(await pack(src, ["."]), join(tempDir(), "out"))).rejects.toThrow(
      /SymbolicLink entry/,
    );
  });

  it("refuses a path that climbs out with ..", async () => {
    const root = tempDir();
    mkdirSync(join(root, "inner"));
    writeFileSync(join(root, "evil.txt"), "evil");
    const bytes = await pack(join(root, "inner"), ["../evil.txt"], { preservePaths: true });
    const dest = join(tempDir(), "out");
    await expect(extractBundle(bytes, dest)).rejects.toThrow(/unsafe path/);
  });

  it("refuses more than the limits allow, and bytes that are not a tar.gz", async () => {
    const src = tempDir();
    writeFileSync(join(src, "big.bin"), Buffer.alloc(4096));
    await expect(
      extractBundle(await pack(src, ["."]), join(tempDir(), "out"), {
        maxFiles: 10,
        maxBytes: 1000,
      }),
    ).rejects.toThrow(/more than 1000 bytes/);
    await expect(
      extractBundle(Buffer.from("not a tarball"), join(tempDir(), "out")),
    ).rejects.toThrow(BundleError);
  });
});
