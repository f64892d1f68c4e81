// Wikis over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set), with two users: a
// coworld's wiki exists under its name, pages are created with a null base, every edit keeps
// a revision, an edit from a stale revision is the 409 `wiki_edit_conflict` with what is there
// now, markdown is rendered without script injection, and pages are found by search.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Wiki, WikiPage, WikiRevision, WikiSearchHit } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let ada: { id: string; token: string };
let bob: { id: string; token: string };
let slug: string;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  ada = await t.newUser();
  bob = await t.newUser();
  const coworld = (
    await client(t.url, tl.commissioner.token).get<{ name: string }>(`/v2/coworlds/${tl.coworldId}`)
  ).body;
  const wikis = (await client(t.url).get<Wiki[]>("/v2/wikis")).body;
  slug = wikis.find((w) => w.coworld_name === coworld.name)?.slug ?? "";
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const as = (user?: { token: string }) => client(t.url, user?.token);

describe("wikis", () => {
  it("has a wiki per coworld, named by it", async () => {
    const coworld = (
      await as(tl.commissioner).get<{ name: string }>(`/v2/coworlds/${tl.coworldId}`)
    ).body;
    expect(slug).toBe(coworld.name);
    const wikis = (await as().get<Wiki[]>("/v2/wikis")).body;
    expect(wikis.find((w) => w.slug === slug)).toMatchObject({
      name: coworld.name,
      coworld_name: coworld.name,
    });
  });

  it("creates a page with a null base, keeps a revision per edit, and is 409 with the current text on a stale base", async () => {
    expect((await as().get(`/v2/wikis/${slug}/pages/Openings`)).status).toBe(404);
    const created = await as(ada).put<WikiPage>(`/v2/wikis/${slug}/pages/Openings`, {
      body: "# Openings\n\nGo north.",
      base_revision_id: null,
      summary: "start",
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      wiki: slug,
      page: "Openings",
      revision_count: 1,
      updated_by_user_id: ada.id,
    });
    expect(created.body.revision_id).toMatch(/^rev_/);
    expect(created.body.body_html).toContain("<h1>Openings</h1>");

    // Both start from the first revision; Bob saves first, so Ada's edit is stale.
    const base = created.body.revision_id;
    const bobs = await as(bob).put<WikiPage>(`/v2/wikis/${slug}/pages/Openings`, {
      body: "# Openings\n\nGo north, then east.",
      base_revision_id: base,
    });
    expect(bobs.status).toBe(200);
    expect(bobs.body.revision_count).toBe(2);
    const stale = await as(ada).put<{
      detail: { type: string; message: string; current_revision_id: string; current_body: string };
    }>(`/v2/wikis/${slug}/pages/Openings`, {
      body: "# Openings\n\nGo south.",
      base_revision_id: base,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatchObject({
      type: "wiki_edit_conflict",
      current_revision_id: bobs.body.revision_id,
      current_body: "# Openings\n\nGo north, then east.",
    });
    expect(stale.body.detail.message).toMatch(/./);
    const merged = await as(ada).put<WikiPage>(`/v2/wikis/${slug}/pages/Openings`, {
      body: "# Openings\n\nGo north, then east; or south.",
      base_revision_id: stale.body.detail.current_revision_id,
    });
    expect(merged.status).toBe(200);
    expect(merged.body.revision_count).toBe(3);

    // A create over an existing page is the same conflict.
    const again = await as(bob).put<{ detail: { type: string; current_revision_id: string } }>(
      `/v2/wikis/${slug}/pages/Openings`,
      { body: "fresh", base_revision_id: null },
    );
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatchObject({
      type: "wiki_edit_conflict",
      current_revision_id: merged.body.revision_id,
    });
    // An edit of a page that does not exist yet, too.
    const missing = await as(bob).put<{
      detail: { type: string; current_revision_id: null; current_body: null };
    }>(`/v2/wikis/${slug}/pages/Nowhere`, { body: "x", base_revision_id: base });
    expect(missing.status).toBe(409);
    expect(missing.body.detail).toMatchObject({
      type: "wiki_edit_conflict",
      current_revision_id: null,
      current_body: null,
    });

    const revisions = await as().get<WikiRevision[]>(`/v2/wiki-pages/${created.body.id}/revisions`);
    expect(revisions.status).toBe(200);
    expect(revisions.body.map((r) => r.id)).toEqual([
      merged.body.revision_id,
      bobs.body.revision_id,
      base,
    ]);
    expect(revisions.body.map((r) => r.author_user_id)).toEqual([ada.id, bob.id, ada.id]);
    expect(revisions.body[1]?.parent_revision_id).toBe(base);
    expect(revisions.body[2]).toMatchObject({
      parent_revision_id: null,
      summary: "start",
      body: "# Openings\n\nGo north.",
    });
    expect(
      (await as().get(`/v2/wiki-pages/wpg_00000000-0000-4000-8000-000000000000/revisions`)).status,
    ).toBe(404);

    const read = await as().get<WikiPage>(`/v2/wikis/${slug}/pages/Openings`);
    expect(read.body).toMatchObject({
      revision_id: merged.body.revision_id,
      body: merged.body.body,
    });
  });

  it("lets exactly one of two concurrent edits from the same base through", async () => {
    const created = await as(ada).put<WikiPage>(`/v2/wikis/${slug}/pages/Race`, {
      body: "v1",
      base_revision_id: null,
    });
    const base = created.body.revision_id;
    const results = await Promise.all([
      as(ada).put<WikiPage>(`/v2/wikis/${slug}/pages/Race`, {
        body: "ada's",
        base_revision_id: base,
      }),
      as(bob).put<WikiPage>(`/v2/wikis/${slug}/pages/Race`, {
        body: "bob's",
        base_revision_id: base,
      }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200);
    const page = (await as().get<WikiPage>(`/v2/wikis/${slug}/pages/Race`)).body;
    expect(page).toMatchObject({
      revision_id: winner?.body.revision_id,
      body: winner?.body.body,
      revision_count: 2,
    });
    expect(
      (await as().get<WikiRevision[]>(`/v2/wiki-pages/${page.id}/revisions`)).body,
    ).toHaveLength(2);
  });

  it("refuses bad input, anonymous and runner edits, and unknown wikis", async () => {
    expect(
      (
        await as(ada).put(`/v2/wikis/${slug}/pages/Bad%20Name`, {
          body: "x",
          base_revision_id: null,
        })
      ).status,
    ).toBe(422);
    expect((await as(ada).put(`/v2/wikis/${slug}/pages/Page`, { body: "x" })).status).toBe(422);
    expect(
      (
        await as(ada).put(`/v2/wikis/${slug}/pages/Page`, {
          body: "x",
          base_revision_id: "rev_nope",
        })
      ).status,
    ).toBe(422);
    expect(
      (await as().put(`/v2/wikis/${slug}/pages/Page`, { body: "x", base_revision_id: null }))
        .status,
    ).toBe(401);
    const machine = await t.machineToken("wiki-runner");
    expect(
      (
        await client(t.url, machine).put(`/v2/wikis/${slug}/pages/Page`, {
          body: "x",
          base_revision_id: null,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await as(ada).put("/v2/wikis/no-such-wiki/pages/Page", {
          body: "x",
          base_revision_id: null,
        })
      ).status,
    ).toBe(404);
    expect((await as().get("/v2/wikis/no-such-wiki/pages/Page")).status).toBe(404);
  });

  it("renders pages without script injection", async () => {
    const res = await as(ada).put<WikiPage>(`/v2/wikis/${slug}/pages/Unsafe`, {
      body: '<script>alert(1)</script> [x](javascript:alert(1)) <a href="javascript:alert(2)">y</a>',
      base_revision_id: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.body_html).not.toContain("<script");
    expect(res.body.body_html).not.toMatch(/href="javascript:/i);
    expect(res.body.body_html).not.toContain("<a href");
  });

  it("finds pages by name or text, case-insensitively", async () => {
    await as(bob).put(`/v2/wikis/${slug}/pages/Endgame`, {
      body: "Hold the CENTRE late.",
      base_revision_id: null,
    });
    const hits = await as().get<WikiSearchHit[]>(`/v2/wikis/${slug}/search?q=centre`);
    expect(hits.status).toBe(200);
    expect(hits.body.map((h) => h.page)).toEqual(["Endgame"]);
    expect(hits.body[0]?.snippet).toContain("CENTRE");
    expect(
      (await as().get<WikiSearchHit[]>(`/v2/wikis/${slug}/search?q=endgame`)).body.map(
        (h) => h.page,
      ),
    ).toEqual(["Endgame"]);
    expect((await as().get<WikiSearchHit[]>(`/v2/wikis/${slug}/search?q=zzz`)).body).toEqual([]);
    expect((await as().get(`/v2/wikis/${slug}/search?q=`)).status).toBe(422);
  });
});
