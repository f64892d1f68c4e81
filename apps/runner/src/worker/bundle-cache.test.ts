import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";

import * as tar from "tar";
import { afterAll, describe, expect, it } from "vitest";

import { BundleCache } from "./bundle-cache.ts";

const root = mkdtempSync(join(tmpdir(), "gauntlet-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function bundleOf(files: Record<string, string>): Promise<{ bytes: Buffer; sha256: string }> {
  const src = mkdtempSync(join(root, "src-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(src, name), text);
  const chunks: Buffer[] = [];
  await pipeline(
    tar.c({ gzip: true, cwd: src, portable: true }, ["."]),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  const bytes = Buffer.concat(chunks);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}

describe("BundleCache", () => {
  it("downloads a bundle once, however many episodes ask for it at the same time", async () => {
    const bundle = await bundleOf({ "player.ts": "// a policy" });
    const downloads: string[] = [];
    const cache = new BundleCache(join(root, "a"), async (sha) => {
      downloads.push(sha);
      return bundle.bytes;
    });
    const dirs = await Promise.all([
      cache.directory(bundle.sha256),
      cache.directory(bundle.sha256),
      cache.directory(bundle.sha256),
    ]);
    expect(new Set(dirs).size).toBe(1);
    expect(readFileSync(join(dirs[0] ?? "", "player.ts"), "utf8")).toBe("// a policy");
    // A second runner process on the same work directory finds it extracted.
    const other = new BundleCache(join(root, "a"), async () => {
      throw new Error("should not download");
    });
    expect(await other.directory(bundle.sha256)).toBe(dirs[0]);
    expect(downloads).toEqual([bundle.sha256]);
  });

  it("refuses bytes that do not match the hash they were asked for", async () => {
    const wanted = await bundleOf({ "a.ts": "wanted" });
    const other = await bundleOf({ "a.ts": "something else" });
    const cache = new BundleCache(join(root, "b"), async () => other.bytes);
    await expect(cache.directory(wanted.sha256)).rejects.toThrow(
      `bundle ${wanted.sha256} arrived with hash ${other.sha256}`,
    );
    await expect(cache.directory("../../etc")).rejects.toThrow("not a bundle hash");
  });

  it("evicts the least recently used bundles past its cap, never one an episode holds", async () => {
    const bundles = await Promise.all(
      ["a", "b", "c"].map((name) => bundleOf({ "p.ts": name.repeat(4000) })),
    );
    const byHash = new Map(bundles.map((b) => [b.sha256, b.bytes]));
    // Room for two bundles; no grace for recent use.
    const cache = new BundleCache(
      join(root, "lru"),
      async (sha) => byHash.get(sha) ?? new Uint8Array(),
      9_000,
      0,
    );
    const [a, b, c] = bundles.map((x) => x.sha256);
    if (a === undefined || b === undefined || c === undefined) throw new Error("no bundles");
    const unpin = cache.pin([a]);
    const dirA = await cache.directory(a);
    const dirB = await cache.directory(b);
    await cache.directory(c);
    // b was the least recently used bundle no episode held; a is pinned.
    expect(existsSync(dirA)).toBe(true);
    expect(existsSync(dirB)).toBe(false);
    unpin();
    // Asked for again, b comes back (downloaded anew) and a, now unheld and oldest, goes.
    await cache.directory(b);
    expect(existsSync(dirA)).toBe(false);
    expect(readFileSync(join(dirB, "p.ts"), "utf8")).toBe("b".repeat(4000));
  });
});
