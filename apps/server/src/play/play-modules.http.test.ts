// Play modules over real HTTP: upload by the coworld's owner, list and get, files served with
// safe headers, and no way out of a module's own files (SQLite, or PostgreSQL when set).
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";

import { strToU8, zipSync } from "fflate";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { PlayModule } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  GRIDRUSH_DIR,
  gridrushManifest,
  type TestLeague,
} from "../../testing/test-league.ts";
import { packDirectory } from "../blobs/tarball.ts";

let t: TestServer;
let tl: TestLeague;
const dir = mkdtempSync(join(tmpdir(), "gauntlet-pmod-"));

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function upload(bytes: Buffer, query: string, token = tl.commissioner.token) {
  const res = await fetch(`${t.url}/v2/coworlds/${tl.coworldId}/play-modules?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as PlayModule & { detail: unknown } };
}

/** GET with the path exactly as written: fetch would resolve `..` before sending it. */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function tarOf(cwd: string, paths: string[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    tar.c({ gzip: true, cwd, portable: true, preservePaths: true }, paths),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

describe("play modules", () => {
  it("uploads GridRush's client, lists and gets it, and serves its files with safe headers", async () => {
    const created = await upload(
      await packDirectory(join(GRIDRUSH_DIR, "play", "client")),
      "kind=player_client",
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const pm = created.body;
    expect(pm).toMatchObject({
      coworld_id: tl.coworldId,
      kind: "player_client",
      entry: "index.html",
    });
    expect(pm.files.map((f) => [f.path, f.content_type])).toEqual([
      ["client.js", "text/javascript; charset=utf-8"],
      ["index.html", "text/html; charset=utf-8"],
      ["style.css", "text/css; charset=utf-8"],
    ]);
    expect(pm.entry_url).toBe(`${t.url}/v2/play-modules/${pm.id}/files/index.html`);

    const api = client(t.url);
    expect(
      (await api.get<PlayModule[]>(`/v2/coworlds/${tl.coworldId}/play-modules`)).body.map(
        (m) => m.id,
      ),
    ).toEqual([pm.id]);
    expect((await api.get<PlayModule>(`/v2/play-modules/${pm.id}`)).body).toEqual(pm);

    const page = await fetch(pm.entry_url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    // The coworld owner's page runs in an opaque origin: it cannot read the API as its viewer.
    expect(page.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts\b/);
    expect(page.headers.get("content-security-policy")).not.toContain("allow-same-origin");
    expect(await page.text()).toContain('<script type="module" src="client.js">');

    // A second upload of the same kind replaces the first.
    const again = await upload(
      await packDirectory(join(GRIDRUSH_DIR, "play", "client")),
      "kind=player_client",
    );
    expect(again.status).toBe(201);
    expect((await api.get(`/v2/play-modules/${pm.id}`)).status).toBe(404);
    expect(
      (await api.get<PlayModule[]>(`/v2/coworlds/${tl.coworldId}/play-modules`)).body.map(
        (m) => m.id,
      ),
    ).toEqual([again.body.id]);
  });

  it("serves nested files, unknown types as opaque bytes, and nothing outside the module", async () => {
    const src = join(dir, "viewer");
    mkdirSync(join(src, "assets"), { recursive: true });
    writeFileSync(join(src, "index.html"), "<!doctype html><script src=assets/app.js></script>");
    writeFileSync(join(src, "assets", "app.js"), "console.log('replay');");
    writeFileSync(join(src, "assets", "data.bin"), "<script>alert(1)</script>");
    const created = await upload(await packDirectory(src), "kind=replay_viewer");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;

    const nested = await fetch(`${t.url}/v2/play-modules/${id}/files/assets/app.js`);
    expect([nested.status, nested.headers.get("content-type"), await nested.text()]).toEqual([
      200,
      "text/javascript; charset=utf-8",
      "console.log('replay');",
    ]);
    const opaque = await fetch(`${t.url}/v2/play-modules/${id}/files/assets/data.bin`);
    expect([
      opaque.status,
      opaque.headers.get("content-type"),
      opaque.headers.get("x-content-type-options"),
    ]).toEqual([200, "application/octet-stream", "nosniff"]);

    for (const path of [
      `/v2/play-modules/${id}/files/../../../../etc/passwd`,
      `/v2/play-modules/${id}/files/assets/../../../package.json`,
      `/v2/play-modules/${id}/files/%2e%2e/%2e%2e/package.json`,
      `/v2/play-modules/${id}/files/..%2f..%2fpackage.json`,
      `/v2/play-modules/${id}/files/%2fetc%2fpasswd`,
      `/v2/play-modules/${id}/files/assets%5c..%5c..%5cpackage.json`,
      `/v2/play-modules/${id}/files/`,
      `/v2/play-modules/${id}/files/missing.js`,
    ]) {
      const res = await rawGet(path);
      expect([404, 422], `${path}: ${res.status} ${res.body}`).toContain(res.status);
      expect(res.body).not.toContain("root:");
      expect(res.body).not.toContain('"name"');
    }
  });

  it("refuses other users, archives with unsafe paths or links, and a missing entry", async () => {
    const other = await t.newUser();
    const bundle = await packDirectory(join(GRIDRUSH_DIR, "play", "client"));
    expect((await upload(bundle, "kind=global_viewer", other.token)).status).toBe(403);
    expect((await upload(bundle, "kind=global_viewer&entry=main.html")).status).toBe(422);
    expect((await upload(bundle, "kind=spectator")).status).toBe(422);
    expect((await upload(Buffer.from("not a tarball"), "kind=global_viewer")).status).toBe(422);

    const inner = join(dir, "inner");
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(dir, "escape.html"), "escaped");
    writeFileSync(join(inner, "index.html"), "ok");
    const escaping = await upload(
      await tarOf(inner, ["index.html", "../escape.html"]),
      "kind=global_viewer",
    );
    expect(escaping.status).toBe(422);
    expect(JSON.stringify(escaping.body)).toContain("climbs out of the bundle");
  });
});

describe("a static replay viewer the manifest names", () => {
  /** Uploads `bytes` as `token`'s replay viewer bundle; answers its `sha256:` name. */
  async function uploadViewerBundle(token: string, bytes: Uint8Array): Promise<string> {
    const api = client(t.url, token);
    const body = {
      content_hash: createHash("sha256").update(bytes).digest("hex"),
      size_bytes: bytes.byteLength,
    };
    const started = await api.post<{ bundle: string; upload_url: string | null }>(
      "/v2/coworlds/replay-viewer-bundles/upload",
      body,
    );
    if (started.body.upload_url)
      expect((await fetch(started.body.upload_url, { method: "PUT", body: bytes })).status).toBe(
        200,
      );
    expect(
      (await api.post("/v2/coworlds/replay-viewer-bundles/upload/complete", body)).status,
    ).toBe(200);
    return started.body.bundle;
  }

  async function leagueNaming(bundle: string, commissioner: { id: string; token: string }) {
    const name = `gridrush-static-${randomBytes(4).toString("hex")}`;
    const manifest = gridrushManifest(name) as { game: Record<string, unknown> };
    return createTestLeague(t, {
      commissioner,
      manifest: { game: { ...manifest.game, replay_viewer: { bundle } } },
    });
  }

  const session = (league: TestLeague) =>
    client(t.url, league.commissioner.token).post<{ detail: { loc: string[]; msg: string }[] }>(
      "/v2/coworlds/replays/session",
      {
        coworld_id: league.coworldId,
        replay_uri: `${t.url}/v2/episode-requests/ereq_none/artifacts/replay`,
      },
    );

  it("is not taken from another user's upload: a manifest cannot name someone else's bytes", async () => {
    const rival = await t.newUser();
    const bundle = await uploadViewerBundle(
      rival.token,
      zipSync({ "index.html": strToU8("<p>rival</p>") }),
    );
    const league = await leagueNaming(bundle, await t.newUser());
    const res = await session(league);
    expect(res.status).toBe(422);
    expect(res.body.detail[0]?.msg).toMatch(/has no replay_viewer play module/);
  });

  it("that is not a usable bundle is a 422 saying why", async () => {
    const owner = await t.newUser();
    const noIndex = await uploadViewerBundle(
      owner.token,
      zipSync({ "viewer.js": strToU8("void 0") }),
    );
    const res = await session(await leagueNaming(noIndex, owner));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      loc: ["body", "coworld_id"],
      msg: "the coworld's static replay viewer bundle cannot be used: it has no index.html at its root",
    });
  });
});
