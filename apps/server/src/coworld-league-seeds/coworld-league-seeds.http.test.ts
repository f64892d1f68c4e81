// coworld's `coworld league create|list|update` against a server: a seed starts the coworld
// name's league, lists for its owner, and its overrides become the league's fields and
// commissioner_config. A competitor can neither seed nor change another's coworld, nor see it.
import { readFileSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { CoworldLeagueSeed, League } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { GRIDRUSH_DIR } from "../../testing/test-league.ts";
import { packDirectory } from "../blobs/tarball.ts";

const manifest = JSON.parse(readFileSync(`${GRIDRUSH_DIR}/coworld_manifest.json`, "utf8")) as {
  game: Record<string, unknown>;
};

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

/** A fresh coworld name of `token`'s user, with two commissioner runnables. */
async function uploadCoworld(token: string): Promise<string> {
  const name = `seeded-${++counter}-${Date.now()}`;
  const bytes = await fetch(`${t.url}/v2/coworlds/bundles`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: bundle,
  });
  const uploaded = (await bytes.json()) as { upload_id: string };
  const res = await client(t.url, token).post("/v2/coworlds/upload", {
    manifest: {
      ...manifest,
      game: { ...manifest.game, name, version: "0.1.0" },
      commissioner: [
        { id: "league", type: "commissioner", image: "example/c:1" },
        { id: "cup", type: "commissioner", image: "example/c:2" },
      ],
    },
    bundle_upload_id: uploaded.upload_id,
  });
  expect(res.status, res.text).toBe(200);
  return name;
}

describe("coworld league seeds", () => {
  it("starts the coworld's league from a seed, lists it for its owner, and applies replaced overrides", async () => {
    const owner = await t.newUser();
    const name = await uploadCoworld(owner.token);
    const api = client(t.dataUrl, owner.token);
    const created = await api.post<CoworldLeagueSeed>("/v2/coworld-league-seeds", {
      coworld_name: name,
      template: "commissioner_driven",
      overrides: { commissioner_runnable_id: "cup", description: "Weekly cup" },
      enabled: true,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      coworld_name: name,
      template: "commissioner_driven",
      overrides: { commissioner_runnable_id: "cup", description: "Weekly cup" },
      enabled: true,
      created_by: owner.id,
    });
    expect(created.body.id).toMatch(/^lseed_/);
    const leagueId = created.body.league_id ?? "";
    const league = await client(t.url).get<League>(`/v2/leagues/${leagueId}`);
    expect(league.status).toBe(200);
    expect(league.body).toMatchObject({
      name,
      description: "Weekly cup",
      commissioner_key: "commissioner_driven",
      commissioner_config: { commissioner_runnable_id: "cup" },
      commissioner_user_id: owner.id,
    });
    const divisions = await client(t.url).get<{ type: string }[]>(
      `/v2/divisions?league_id=${leagueId}`,
    );
    expect(divisions.body.map((d) => d.type)).toEqual(["competition"]);

    expect((await api.get<CoworldLeagueSeed[]>("/v2/coworld-league-seeds")).body).toEqual([
      created.body,
    ]);
    const again = await api.post("/v2/coworld-league-seeds", { coworld_name: name });
    expect(again.status).toBe(409);

    const updated = await api.patch<CoworldLeagueSeed>(
      `/v2/coworld-league-seeds/${encodeURIComponent(name)}`,
      { overrides: { commissioner_runnable_id: "league", feed_secret: "window" } },
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.overrides).toEqual({
      commissioner_runnable_id: "league",
      feed_secret: "window",
    });
    const after = await client(t.url).get<League>(`/v2/leagues/${leagueId}`);
    expect(after.body.commissioner_config).toEqual({
      commissioner_runnable_id: "league",
      feed_secret: "window",
    });

    const disabled = await api.patch<CoworldLeagueSeed>(`/v2/coworld-league-seeds/${name}`, {
      overrides: {},
      enabled: false,
    });
    expect(disabled.body.enabled).toBe(false);
    // A disabled league is no longer public.
    expect((await client(t.url).get(`/v2/leagues/${leagueId}`)).status).toBe(404);
  });

  it("refuses a commissioner runnable the coworld lacks and bad league fields at the override (422)", async () => {
    const owner = await t.newUser();
    const name = await uploadCoworld(owner.token);
    const api = client(t.url, owner.token);
    const unknown = await api.post<{ detail: { loc: string[] }[] }>("/v2/coworld-league-seeds", {
      coworld_name: name,
      overrides: { commissioner_runnable_id: "nope" },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]?.loc).toEqual(["body", "overrides", "commissioner_runnable_id"]);
    const badField = await api.post<{ detail: { loc: string[] }[] }>("/v2/coworld-league-seeds", {
      coworld_name: name,
      overrides: { public: "yes" },
    });
    expect(badField.status).toBe(422);
    expect(badField.body.detail[0]?.loc).toEqual(["body", "overrides", "public"]);
    const missing = await api.post("/v2/coworld-league-seeds", { coworld_name: "no-such-world" });
    expect(missing.status).toBe(404);
    expect((await api.get<CoworldLeagueSeed[]>("/v2/coworld-league-seeds")).body).toEqual([]);
  });

  it("keeps a competitor out: no seed of another's coworld, no change to its seed, none listed", async () => {
    const owner = await t.newUser();
    const rival = await t.newUser();
    const name = await uploadCoworld(owner.token);
    const rivalApi = client(t.url, rival.token);
    const squat = await rivalApi.post("/v2/coworld-league-seeds", { coworld_name: name });
    expect(squat.status).toBe(403);
    const seeded = await client(t.url, owner.token).post<CoworldLeagueSeed>(
      "/v2/coworld-league-seeds",
      { coworld_name: name },
    );
    expect(seeded.status).toBe(201);
    const hijack = await rivalApi.patch(`/v2/coworld-league-seeds/${name}`, {
      overrides: { commissioner_runnable_id: "league" },
    });
    expect(hijack.status).toBe(404);
    expect((await rivalApi.get<CoworldLeagueSeed[]>("/v2/coworld-league-seeds")).body).toEqual([]);
    // Only admins choose the game of the week, through a seed too.
    const gotw = await client(t.url, owner.token).patch(`/v2/coworld-league-seeds/${name}`, {
      overrides: { is_game_of_week: true },
    });
    expect(gotw.status).toBe(403);
    const admin = await client(t.url, t.adminToken).patch<CoworldLeagueSeed>(
      `/v2/coworld-league-seeds/${name}`,
      { overrides: { is_game_of_week: true } },
    );
    expect(admin.status, admin.text).toBe(200);
    const league = await client(t.url).get<League>(`/v2/leagues/${seeded.body.league_id ?? ""}`);
    expect(league.body.is_game_of_week).toBe(true);
    expect(
      (
        await client(t.url, t.adminToken).get<CoworldLeagueSeed[]>("/v2/coworld-league-seeds")
      ).body.map((s) => s.coworld_name),
    ).toContain(name);
  });
});
