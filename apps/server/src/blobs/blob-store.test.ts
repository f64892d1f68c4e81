import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DirectoryBlobStore } from "./blob-store.ts";

const dir = mkdtempSync(join(tmpdir(), "gauntlet-blobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("DirectoryBlobStore", () => {
  const store = new DirectoryBlobStore(dir);

  it("stores bytes under their sha256 and returns them", async () => {
    const put = await store.put(Buffer.from("hello replay"));
    expect(put.size).toBe(12);
    expect(put.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await store.get(put.sha256))?.toString()).toBe("hello replay");
    expect(await store.has(put.sha256)).toBe(true);
  });

  it("keeps one copy of the same bytes", async () => {
    const a = await store.put(Buffer.from("same"));
    const b = await store.put(Buffer.from("same"));
    expect(a.sha256).toBe(b.sha256);
  });

  it("answers null for an unknown hash and refuses a malformed one", async () => {
    expect(await store.get("0".repeat(64))).toBeNull();
    await expect(store.get("../etc/passwd")).rejects.toThrow("not a sha256");
  });
});
