// Wikis over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set), with two users: a
// coworld's wiki exists under its name, pages are created with a null base, every edit keeps
// a revision, an edit from a stale revision is the 409 `wiki_edit_conflict` with what is there
// now, markdown is rendered without script injection, and pages are found by search.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Wiki, WikiEdit, WikiPage, WikiRevisionPage, WikiSearchPage } from "@gauntlet/core";

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
    const createdEdit = await as(ada).put<WikiEdit>(`/v2/wikis/${slug}/pages/Openings`, {
      body: "# Openings\n\nGo north.",
      base_revision_id: null,
      summary: "start",
    });
    expect(createdEdit.status, createdEdit.text).toBe(200);
    const created = { body: createdEdit.body.page };
    expect(createdEdit.body.revision).toEqual(created.body.current_revision);
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
    const bobsEdit = await as(bob).put<WikiEdit>(`/v2/wikis/${slug}/pages/Openings`, {
      body: "# Openings\n\nGo north, then east.",
      base_revision_id: base,
    });
    expect(bobsEdit.status).toBe(200);
    const bobs = { body: bobsEdit.body.page };
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
    const mergedEdit = await as(ada).put<WikiEdit>(`/v2/wikis/${slug}/pages/Openings`, {
      body: "# Openings\n\nGo north, then east; or south.",
      base_revision_id: stale.body.detail.current_revision_id,
    });
    expect(mergedEdit.status).toBe(200);
    const merged = { body: mergedEdit.body.page };
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

    const revisions = await as().get<WikiRevisionPage>(
      `/v2/wiki-pages/${created.body.id}/revisions`,
    );
    expect(revisions.status).toBe(200);
    expect(revisions.body.next_cursor).toBeNull();
    expect(revisions.body.entries.map((r) => r.id)).toEqual([
      merged.body.revision_id,
      bobs.body.revision_id,
      base,
    ]);
    expect(revisions.body.entries.map((r) => r.author_user_id)).toEqual([ada.id, bob.id, ada.id]);
    expect(revisions.body.entries[1]?.parent_revision_id).toBe(base);
    expect(revisions.body.entries[2]).toMatchObject({
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
    const created = await as(ada).put<WikiEdit>(`/v2/wikis/${slug}/pages/Race`, {
      body: "v1",
      base_revision_id: null,
    });
    const base = created.body.page.revision_id;
    const results = await Promise.all([
      as(ada).put<WikiEdit>(`/v2/wikis/${slug}/pages/Race`, {
        body: "ada's",
        base_revision_id: base,
      }),
      as(bob).put<WikiEdit>(`/v2/wikis/${slug}/pages/Race`, {
        body: "bob's",
        base_revision_id: base,
      }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200);
    const page = (await as().get<WikiPage>(`/v2/wikis/${slug}/pages/Race`)).body;
    expect(page).toMatchObject({
      revision_id: winner?.body.page.revision_id,
      body: winner?.body.page.body,
      revision_count: 2,
    });
    expect(
      (await as().get<WikiRevisionPage>(`/v2/wiki-pages/${page.id}/revisions`)).body.entries,
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

  it("takes path-like page names with `/`, sent as is or encoded, and refuses empty or dot segments", async () => {
    const made = await as(ada).put<{ page: { id: string; slug: string } }>(
      `/v2/wikis/${slug}/pages/guides/opening`,
      { body: "Open in the corner.", base_revision_id: null, title: "Opening" },
    );
    expect(made.status, made.text).toBe(200);
    expect(made.body.page.slug).toBe("guides/opening");
    const raw = await as().get<{ id: string; slug: string; body: string }>(
      `/v2/wikis/${slug}/pages/guides/opening`,
    );
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({ id: made.body.page.id, body: "Open in the corner." });
    const encoded = await as().get<{ id: string }>(`/v2/wikis/${slug}/pages/guides%2Fopening`);
    expect(encoded.body.id).toBe(made.body.page.id);
    // A different page from its parent and from a sibling.
    expect((await as().get(`/v2/wikis/${slug}/pages/guides`)).status).toBe(404);
    for (const bad of ["guides//opening", "guides/..", "guides/.hidden", "guides/"])
      expect(
        (await as(ada).put(`/v2/wikis/${slug}/pages/${bad}`, { body: "x", base_revision_id: null }))
          .status,
        bad,
      ).toBe(422);
  });

  it("renders pages without script injection", async () => {
    const res = await as(ada).put<WikiEdit>(`/v2/wikis/${slug}/pages/Unsafe`, {
      body: '<script>alert(1)</script> [x](javascript:alert(1)) <a href="javascript:alert(2)">y</a>',
      base_revision_id: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.page.body_html).not.toContain("<script");
    expect(res.body.page.body_html).not.toMatch(/href="javascript:/i);
    expect(res.body.page.body_html).not.toContain("<a href");
  });

  it("finds pages by name or text, case-insensitively", async () => {
    await as(bob).put(`/v2/wikis/${slug}/pages/Endgame`, {
      body: "Hold the CENTRE late.",
      base_revision_id: null,
    });
    const hits = await as().get<WikiSearchPage>(`/v2/wikis/${slug}/search?q=centre`);
    expect(hits.status).toBe(200);
    expect(hits.body.result_quality).toBe("exact_within_wiki");
    expect(hits.body.entries.map((h) => h.page.page)).toEqual(["Endgame"]);
    expect(hits.body.entries[0]?.snippet).toContain("CENTRE");
    expect(
      (await as().get<WikiSearchPage>(`/v2/wikis/${slug}/search?q=endgame`)).body.entries.map(
        (h) => h.page.page,
      ),
    ).toEqual(["Endgame"]);
    expect((await as().get<WikiSearchPage>(`/v2/wikis/${slug}/search?q=zzz`)).body.entries).toEqual(
      [],
    );
    expect((await as().get(`/v2/wikis/${slug}/search?q=`)).status).toBe(422);
  });
  it("answers in the shapes of the hosted service's wiki client: titles, notes, authors, repeats by idempotency_key, pages of revisions and search hits", async () => {
    const url = `/v2/wikis/${slug}/pages/Tactics`;
    const first = await as(ada).put<WikiEdit>(url, {
      body: "Hold the centre.",
      base_revision_id: null,
      title: "Tactics, in short",
      note: "first notes",
    });
    expect(first.status, first.text).toBe(200);
    const adaName = first.body.revision.author.name;
    expect(first.body.page).toMatchObject({
      slug: "Tactics",
      title: "Tactics, in short",
      deleted_at: null,
      current_revision_id: first.body.revision.id,
    });
    expect(first.body.page.wiki_id).toMatch(/^wiki_/);
    expect(first.body.revision).toMatchObject({
      note: "first notes",
      summary: "first notes",
      author: { type: "user", user_id: ada.id, player_id: null },
    });
    expect(adaName).not.toContain("@");

    // An edit keeps the title unless it names one; a repeat of its key answers the same edit.
    const edit = {
      body: "Hold the centre; then the flanks.",
      base_revision_id: first.body.revision.id,
      idempotency_key: "tactics-2",
    };
    const second = await as(bob).put<WikiEdit>(url, edit);
    expect(second.status, second.text).toBe(200);
    expect(second.body.page.title).toBe("Tactics, in short");
    const repeat = await as(bob).put<WikiEdit>(url, edit);
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body.revision.id).toBe(second.body.revision.id);
    expect(repeat.body.page.revision_count).toBe(2);
    // Without the key the same request is a stale edit; the key with another edit is 409.
    expect((await as(bob).put(url, { ...edit, idempotency_key: undefined })).status).toBe(409);
    const reused = await as(bob).put<{ detail: { type: string } }>(url, {
      ...edit,
      body: "something else",
      base_revision_id: second.body.revision.id,
    });
    expect(reused.status).toBe(409);
    expect(reused.body.detail.type).toBe("idempotency_key_reused");
    const renamed = await as(ada).put<WikiEdit>(url, {
      body: "Hold the centre; then the flanks.",
      base_revision_id: second.body.revision.id,
      title: "Tactics",
    });
    expect(renamed.body.page.title).toBe("Tactics");
    expect((await as().get<WikiPage>(url)).body.current_revision).toMatchObject({
      id: renamed.body.revision.id,
      body: "Hold the centre; then the flanks.",
      author: { type: "user", user_id: ada.id, name: adaName },
    });

    // Revisions come a page at a time, newest first.
    const pageId = first.body.page.id;
    const one = await as().get<WikiRevisionPage>(`/v2/wiki-pages/${pageId}/revisions?limit=2`);
    expect(one.body.entries.map((r) => r.id)).toEqual([
      renamed.body.revision.id,
      second.body.revision.id,
    ]);
    expect(one.body.next_cursor).not.toBeNull();
    const two = await as().get<WikiRevisionPage>(
      `/v2/wiki-pages/${pageId}/revisions?limit=2&cursor=${one.body.next_cursor ?? ""}`,
    );
    expect(two.body.entries.map((r) => r.id)).toEqual([first.body.revision.id]);
    expect(two.body.next_cursor).toBeNull();
    expect((await as().get(`/v2/wiki-pages/${pageId}/revisions?cursor=nonsense`)).status).toBe(422);

    // Search hits carry the page, its current author and a rank; filters by that author.
    const hits = await as().get<WikiSearchPage>(`/v2/wikis/${slug}/search?q=flanks`);
    expect(hits.body.entries).toHaveLength(1);
    expect(hits.body.entries[0]).toMatchObject({
      page: { id: pageId, title: "Tactics" },
      current_author: { type: "user", user_id: ada.id },
      rank: 1,
    });
    const byBob = await as().get<WikiSearchPage>(
      `/v2/wikis/${slug}/search?q=flanks&author_user_id=${bob.id}`,
    );
    expect(byBob.body.entries).toEqual([]);
  });
});
