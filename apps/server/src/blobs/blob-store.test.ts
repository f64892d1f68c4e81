// The blob store's one interface, the same vectors on both stores: the directory (the default)
// and an S3-compatible bucket on a real S3 server (s3rver).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startS3Server, type TestS3Server } from "../../testing/s3-server.ts";
import { DirectoryBlobStore, type BlobStore } from "./blob-store.ts";
import { S3BlobStore } from "./s3-blob-store.ts";

const dir = mkdtempSync(join(tmpdir(), "gauntlet-blobs-"));
let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await s3.close();
});

const stores: [string, () => BlobStore][] = [
  ["DirectoryBlobStore", () => new DirectoryBlobStore(dir)],
  ["S3BlobStore", () => new S3BlobStore({ ...s3.options, prefix: "tests" })],
];

describe.each(stores)("%s", (_name, make) => {
  it("stores bytes under their sha256 and returns them", async () => {
    const store = make();
    const put = await store.put(Buffer.from("hello replay"));
    expect(put.size).toBe(12);
    expect(put.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await store.get(put.sha256))?.toString()).toBe("hello replay");
    expect(await store.has(put.sha256)).toBe(true);
    expect(store.uri(put.sha256)).toMatch(new RegExp(`${put.sha256}$`));
  });

  it("keeps one copy of the same bytes", async () => {
    const store = make();
    const a = await store.put(Buffer.from("same"));
    const b = await store.put(Buffer.from("same"));
    expect(a.sha256).toBe(b.sha256);
  });

  it("answers null for an unknown hash and refuses a malformed one", async () => {
    const store = make();
    expect(await store.get("0".repeat(64))).toBeNull();
    expect(await store.has("0".repeat(64))).toBe(false);
    await expect(store.get("../etc/passwd")).rejects.toThrow("not a sha256");
  });

  it("keeps binary bytes as they are", async () => {
    const store = make();
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 256));
    const put = await store.put(bytes);
    expect((await store.get(put.sha256))?.equals(bytes)).toBe(true);
  });
});

describe("S3BlobStore's presigned uploads", () => {
  it("hands out an address a client PUTs to without credentials, and reads what arrived", async () => {
    const store = new S3BlobStore(s3.options);
    expect(await store.readUpload("uploads/a.duckdb")).toBeNull();
    const url = await store.presignPut("uploads/a.duckdb", 600);
    expect(url.startsWith(`${s3.endpoint}/gauntlet/uploads/a.duckdb?`)).toBe(true);
    expect(url).toContain("X-Amz-Signature=");
    expect(url).toContain("X-Amz-Expires=600");
    expect((await fetch(url, { method: "PUT", body: "DUCK" })).status).toBe(200);
    expect((await store.readUpload("uploads/a.duckdb"))?.toString()).toBe("DUCK");
  });

  it("says which request the service refused", async () => {
    const store = new S3BlobStore({ ...s3.options, bucket: "no-such-bucket" });
    await expect(store.put(Buffer.from("x"))).rejects.toThrow(
      /^the S3 store answered PUT sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64} with 404/,
    );
  });
});
