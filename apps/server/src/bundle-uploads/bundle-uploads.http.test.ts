// Coworld's bundle uploads over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set): a
// reporter's bundle becomes numbered versions of the owner's reporter name, a replay viewer's
// zip a `sha256:` bundle; the signed address takes only the announced bytes, and nobody but
// the uploader completes or reuses an upload.
import { createHash } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({
    env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_RATE_LIMIT_MODE: "off" },
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
// Sent as coworld's client sends it: the bytes and no Content-Type.
const put = (url: string, bytes: Uint8Array) =>
  fetch(url, { method: "PUT", body: new Blob([bytes]) });

type Version = { id: string; name: string; version: number; content_hash: string };
type Started = { upload_url: string | null; existing_version: Version | null };

describe("reporter bundle upload", () => {
  it("uploads, completes as version 1, dedupes the same bytes and attributes, counts on", async () => {
    const owner = await t.newUser();
    const api = client(t.url, owner.token);
    expect(
      (await api.post("/v2/reporters/register", { name: "paint-recap", description: "d" })).status,
    ).toBe(201);
    const wasm = new TextEncoder().encode("\0asm reporter one");
    const attributes = { purpose: "recaps", outputs: [{ name: "recap", type: "html" }] };
    const started = await api.post<Started>("/v2/reporters/upload", {
      name: "paint-recap",
      content_hash: sha256(wasm),
      size_bytes: wasm.length,
      attributes,
    });
    expect(started.status).toBe(200);
    expect(started.body.existing_version).toBeNull();
    const url = started.body.upload_url ?? "";
    // Completing before the bytes are there is refused.
    const early = await api.post("/v2/reporters/upload/complete", {
      name: "paint-recap",
      content_hash: sha256(wasm),
      attributes,
    });
    expect(early.status).toBe(409);
    // The address takes only the announced bytes.
    const wrong = await put(url, new TextEncoder().encode("something else entirely"));
    expect(wrong.status).toBe(422);
    expect((await put(`${url}x`, wasm)).status).toBe(403);
    expect((await put(url, wasm)).status).toBe(200);
    const done = await api.post<{ version: Version }>("/v2/reporters/upload/complete", {
      name: "paint-recap",
      content_hash: sha256(wasm),
      attributes: { outputs: [{ type: "html", name: "recap" }], purpose: "recaps" },
    });
    expect(done.status).toBe(200);
    expect(done.body.version).toMatchObject({
      name: "paint-recap",
      version: 1,
      content_hash: sha256(wasm),
    });
    // The same bytes and attributes (keys in any order) are that version, with no upload.
    const again = await api.post<Started>("/v2/reporters/upload", {
      name: "paint-recap",
      content_hash: sha256(wasm),
      size_bytes: wasm.length,
      attributes: { outputs: [{ name: "recap", type: "html" }], purpose: "recaps" },
    });
    expect(again.body).toEqual({ upload_url: null, existing_version: done.body.version });
    // Other attributes over the same bytes are the next version.
    const changed = { ...attributes, purpose: "longer recaps" };
    const next = await api.post<Started>("/v2/reporters/upload", {
      name: "paint-recap",
      content_hash: sha256(wasm),
      size_bytes: wasm.length,
      attributes: changed,
    });
    expect((await put(next.body.upload_url ?? "", wasm)).status).toBe(200);
    const v2 = await api.post<{ version: Version }>("/v2/reporters/upload/complete", {
      name: "paint-recap",
      content_hash: sha256(wasm),
      attributes: changed,
    });
    expect(v2.body.version.version).toBe(2);
  });

  it("is the reporter owner's alone: another user's name is 404, their upload not reusable", async () => {
    const owner = await t.newUser();
    const rival = await t.newUser();
    await client(t.url, owner.token).post("/v2/reporters/register", { name: "owned-name" });
    const wasm = new TextEncoder().encode("\0asm owned");
    const body = {
      name: "owned-name",
      content_hash: sha256(wasm),
      size_bytes: wasm.length,
      attributes: {},
    };
    const started = await client(t.url, owner.token).post<Started>("/v2/reporters/upload", body);
    expect((await put(started.body.upload_url ?? "", wasm)).status).toBe(200);

    const rivalApi = client(t.url, rival.token);
    expect((await rivalApi.post("/v2/reporters/upload", body)).status).toBe(404);
    const { size_bytes: _size, ...complete } = body;
    expect((await rivalApi.post("/v2/reporters/upload/complete", complete)).status).toBe(404);
    // Under a name of their own, the rival still cannot complete bytes only the owner uploaded.
    await rivalApi.post("/v2/reporters/register", { name: "mine-too" });
    const theirs = await rivalApi.post("/v2/reporters/upload/complete", {
      ...complete,
      name: "mine-too",
    });
    expect(theirs.status).toBe(409);
    expect((await client(t.url).post("/v2/reporters/upload", body)).status).toBe(401);
    const bad = await client(t.url, owner.token).post<{ detail: { loc: string[] }[] }>(
      "/v2/reporters/upload",
      { ...body, content_hash: "abc" },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]?.loc).toEqual(["body", "content_hash"]);
  });
});

describe("replay viewer bundle upload", () => {
  it("uploads a zip as sha256:<hash>, then skips the upload for the same bytes", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const zip = new TextEncoder().encode("PK\u0003\u0004 a viewer");
    const body = { content_hash: sha256(zip), size_bytes: zip.length };
    const started = await api.post<{ bundle: string; upload_url: string | null }>(
      "/v2/coworlds/replay-viewer-bundles/upload",
      body,
    );
    expect(started.status).toBe(200);
    expect(started.body.bundle).toBe(`sha256:${sha256(zip)}`);
    expect(
      (await api.post("/v2/coworlds/replay-viewer-bundles/upload/complete", body)).status,
    ).toBe(409);
    expect((await put(started.body.upload_url ?? "", zip)).status).toBe(200);
    const done = await api.post<{ bundle: string }>(
      "/v2/coworlds/replay-viewer-bundles/upload/complete",
      body,
    );
    expect(done.body).toEqual({ bundle: `sha256:${sha256(zip)}` });
    const again = await api.post<{ upload_url: string | null }>(
      "/v2/coworlds/replay-viewer-bundles/upload",
      body,
    );
    expect(again.body.upload_url).toBeNull();
    // Another user is not told that these bytes exist: they are asked to upload them.
    const other = await client(t.url, (await t.newUser()).token).post<{
      upload_url: string | null;
    }>("/v2/coworlds/replay-viewer-bundles/upload", body);
    expect(other.body.upload_url).not.toBeNull();
    const machine = await client(t.url, await t.machineToken("viewer-runner")).post(
      "/v2/coworlds/replay-viewer-bundles/upload",
      body,
    );
    expect(machine.status).toBe(403);
  });
});
