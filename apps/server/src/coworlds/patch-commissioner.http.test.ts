// coworld's `patch-commissioner` against a server: the owner's next version of a coworld with a
// new commissioner image; a competitor may not patch another's coworld nor use another's image.
import { readFileSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Coworld } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { GRIDRUSH_DIR } from "../../testing/test-league.ts";
import { packDirectory } from "../blobs/tarball.ts";

const manifest = JSON.parse(readFileSync(`${GRIDRUSH_DIR}/coworld_manifest.json`, "utf8")) as {
  game: Record<string, unknown>;
};
type Problem = { detail: { loc: string[] }[] };

let t: TestServer;
let bundle: Buffer;
let counter = 0;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  bundle = await packDirectory(GRIDRUSH_DIR);
});
afterAll(async () => {
  await t?.close();
});

async function uploadCoworld(token: string, commissioner: { id: string; image: string }[]) {
  const name = `patched-${++counter}-${Date.now()}`;
  const bytes = await fetch(`${t.url}/v2/coworlds/bundles`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: bundle,
  });
  const uploaded = (await bytes.json()) as { upload_id: string };
  const res = await client(t.url, token).post<Coworld>("/v2/coworlds/upload", {
    manifest: {
      ...manifest,
      game: { ...manifest.game, name, version: "0.1.9" },
      commissioner: commissioner.map((c) => ({ ...c, type: "commissioner" })),
    },
    bundle_upload_id: uploaded.upload_id,
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function image(token: string): Promise<string> {
  const api = client(t.url, token);
  const started = await api.post<{ image: { id: string } }>("/v2/container_images/upload", {
    name: "commissioner",
    client_hash: `sha256:${counter}`,
  });
  expect(started.status, started.text).toBe(200);
  const done = await api.post("/v2/container_images/upload/complete", {
    id: started.body.image.id,
  });
  expect(done.status, done.text).toBe(200);
  return started.body.image.id;
}

describe("patch-commissioner", () => {
  it("makes the next patch version with the commissioner's new image, keeping the rest", async () => {
    const owner = await t.newUser();
    const original = await uploadCoworld(owner.token, [{ id: "league", image: "example/c:1" }]);
    const img = await image(owner.token);
    const res = await client(t.dataUrl, owner.token).post<Coworld>(
      "/v2/coworlds/patch-commissioner",
      { coworld_name: original.name, container_image_id: img },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: original.name, version: "0.1.10", canonical: true });
    expect(res.body.manifest.commissioner).toEqual([
      { id: "league", type: "commissioner", image: img },
    ]);
    expect(res.body.manifest.player).toEqual(original.manifest.player);
    expect(res.body.has_bundle).toBe(true);
    expect(res.body.size_bytes).toBeGreaterThan(0);

    const named = await client(t.url, owner.token).post<Coworld>(
      "/v2/coworlds/patch-commissioner",
      { coworld_name: original.name, container_image_id: img, version: "1.0.0" },
    );
    expect(named.body.version).toBe("1.0.0");
    const taken = await client(t.url, owner.token).post("/v2/coworlds/patch-commissioner", {
      coworld_name: original.name,
      container_image_id: img,
      version: "1.0.0",
    });
    expect(taken.status).toBe(409);
  });

  it("asks which runnable when there are several, and refuses an unknown one (422)", async () => {
    const owner = await t.newUser();
    const world = await uploadCoworld(owner.token, [
      { id: "league", image: "example/c:1" },
      { id: "cup", image: "example/c:2" },
    ]);
    const img = await image(owner.token);
    const api = client(t.url, owner.token);
    const ambiguous = await api.post<Problem>("/v2/coworlds/patch-commissioner", {
      coworld_name: world.name,
      container_image_id: img,
    });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.detail[0]?.loc).toEqual(["body", "runnable_id"]);
    const unknown = await api.post<Problem>("/v2/coworlds/patch-commissioner", {
      coworld_name: world.name,
      container_image_id: img,
      runnable_id: "nope",
    });
    expect(unknown.status).toBe(422);
    const cup = await api.post<Coworld>("/v2/coworlds/patch-commissioner", {
      coworld_name: world.name,
      container_image_id: img,
      runnable_id: "cup",
    });
    expect(cup.status, cup.text).toBe(201);
    expect(cup.body.manifest.commissioner?.map((c) => c.image)).toEqual(["example/c:1", img]);
  });

  it("lets no competitor patch another's coworld or use another's image", async () => {
    const owner = await t.newUser();
    const rival = await t.newUser();
    const world = await uploadCoworld(owner.token, [{ id: "league", image: "example/c:1" }]);
    const ownerImage = await image(owner.token);
    const rivalImage = await image(rival.token);
    const hijack = await client(t.url, rival.token).post("/v2/coworlds/patch-commissioner", {
      coworld_name: world.name,
      container_image_id: rivalImage,
    });
    expect(hijack.status).toBe(403);
    const borrowed = await client(t.url, owner.token).post<Problem>(
      "/v2/coworlds/patch-commissioner",
      { coworld_name: world.name, container_image_id: rivalImage },
    );
    expect(borrowed.status).toBe(422);
    expect(borrowed.body.detail[0]?.loc).toEqual(["body", "container_image_id"]);
    const versions = await client(t.url).get<Coworld[]>(`/v2/coworlds?name=${world.name}`);
    expect(versions.body.map((v) => v.version)).toEqual(["0.1.9"]);
    expect(ownerImage).toMatch(/^img_/);
  });
});
