import { afterEach, describe, expect, it } from "vitest";

import { startArtifactReceiver, type ArtifactReceiver } from "./artifact-receiver.ts";

let receiver: ArtifactReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const put = (url: string, bytes: number, method = "PUT") =>
  fetch(url, { method, body: new Uint8Array(bytes).fill(7) });

describe("the artifact receiver", () => {
  it("keeps each slot's upload, the last one winning", async () => {
    receiver = await startArtifactReceiver(2, 100);
    expect((await put(receiver.urlFor(1), 10)).status).toBe(201);
    expect((await put(receiver.urlFor(1), 20, "POST")).status).toBe(201);
    const [first, second] = receiver.artifacts();
    expect(first).toBeNull();
    expect(second?.byteLength).toBe(20);
  });

  it("refuses an upload over the limit with 413 and keeps nothing of it", async () => {
    receiver = await startArtifactReceiver(1, 100);
    const res = await put(receiver.urlFor(0), 101);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toContain("100-byte limit");
    expect(receiver.artifacts()).toEqual([null]);
  });

  it("answers 404 to another slot's key or an unknown path, and 405 to a GET", async () => {
    receiver = await startArtifactReceiver(2, 100);
    const [base, key] = receiver.urlFor(0).split("/artifacts/0/");
    expect((await put(`${base}/artifacts/1/${key ?? ""}`, 5)).status).toBe(404);
    expect((await put(`${base}/artifacts/2/${key ?? ""}`, 5)).status).toBe(404);
    expect((await fetch(receiver.urlFor(0))).status).toBe(405);
    expect(receiver.artifacts()).toEqual([null, null]);
  });
});
