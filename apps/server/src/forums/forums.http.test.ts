// Forums and posts over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set), with two
// users: the general forum and a coworld's forum exist, posting is idempotent by key, votes
// are one per user and changeable, pages come in hot/new/top order with cursors, markdown is
// rendered without script injection, and one user cannot change another's post.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  Comment,
  Forum,
  ForumSearchPage,
  Post,
  PostDetail,
  PostPage,
  VotedComment,
  VotedPost,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let ada: { id: string; token: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  ada = await t.newUser();
  bob = await t.newUser();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const as = (user?: { token: string }) => client(t.url, user?.token);

async function post(user: { token: string }, body: Record<string, unknown>): Promise<Post> {
  const res = await as(user).post<Post>("/v2/posts", {
    forum: "general",
    content_format: "markdown",
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("forums", () => {
  it("has the general forum first and one per coworld, named by it", async () => {
    const res = await as().get<Forum[]>("/v2/forums");
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ slug: "general", kind: "general", coworld_name: null });
    const coworld = (
      await as(tl.commissioner).get<{ name: string }>(`/v2/coworlds/${tl.coworldId}`)
    ).body;
    expect(res.body.find((f) => f.coworld_name === coworld.name)).toMatchObject({
      kind: "coworld",
      slug: coworld.name,
      name: coworld.name,
    });
  });

  it("is 404 for an unknown forum and 422 for a slug off the pattern", async () => {
    expect((await as().get("/v2/forums/no-such-forum/posts")).status).toBe(404);
    expect((await as().get("/v2/forums/Not%20A%20Slug/posts")).status).toBe(422);
    const res = await as(ada).post<{ detail: { loc: unknown[] }[] }>("/v2/posts", {
      forum: "no-such-forum",
      title: "x",
      body: "y",
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]?.loc).toEqual(["body", "forum"]);
  });
});

describe("posts", () => {
  it("returns the same post when an idempotency_key is repeated, and 409 for the key with another post", async () => {
    const body = { title: "Opening moves", body: "Go **north** first.", idempotency_key: "ada-1" };
    const first = await post(ada, body);
    const again = await post(ada, body);
    expect(again.id).toBe(first.id);
    // Another user's key space is their own.
    const bobs = await post(bob, body);
    expect(bobs.id).not.toBe(first.id);
    const reused = await as(ada).post<{ detail: { type: string } }>("/v2/posts", {
      forum: "general",
      ...body,
      title: "Something else",
    });
    expect(reused.status).toBe(409);
    expect(reused.body.detail.type).toBe("idempotency_key_reused");
    const page = await as().get<PostPage>("/v2/forums/general/posts?sort=new&limit=100");
    expect(page.body.entries.filter((p) => p.title === "Opening moves")).toHaveLength(2);
    expect(first).toMatchObject({
      forum: "general",
      author: { user_id: ada.id, player_id: null },
      score: 0,
      comment_count: 0,
      my_vote: 0,
      edited: false,
    });
    expect(first.body_html).toContain("<strong>north</strong>");
  });

  it("creates one post for concurrent repeats of an idempotency_key", async () => {
    const body = { forum: "general", title: "Raced", body: "once", idempotency_key: "race-1" };
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => as(bob).post<Post>("/v2/posts", body)),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  });

  it("renders markdown without script injection and serves the source as .md", async () => {
    const source =
      'Hello <script>alert("x")</script>\n\n[click](javascript:alert(1)) and <img src=x onerror=alert(1)> and [ok](https://example.org)';
    const created = await post(ada, { title: "Unsafe?", body: source });
    expect(created.body_html).not.toContain("<script");
    expect(created.body_html).toContain("&lt;script&gt;");
    expect(created.body_html).not.toMatch(/href="javascript:/i);
    expect(created.body_html).not.toContain("<img");
    expect(created.body_html).toContain('href="https://example.org"');
    const text = await post(ada, { title: "Plain", body: "<b>bold?</b>", content_format: "text" });
    expect(text.body_html).toBe("<p>&lt;b&gt;bold?&lt;/b&gt;</p>\n");
    const md = await as().get(`/v2/posts/${created.id}.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(md.text).toBe(`# Unsafe?\n\n${source}\n`);
    expect((await as().get("/v2/posts/post_00000000-0000-4000-8000-000000000000.md")).status).toBe(
      404,
    );
  });

  it("lets only the author or an admin edit or delete a post (403 to others)", async () => {
    const mine = await post(ada, { title: "Mine", body: "first draft" });
    const denied = await as(bob).patch<{ detail: { type: string } }>(`/v2/posts/${mine.id}`, {
      body: "defaced",
    });
    expect(denied.status).toBe(403);
    expect(denied.body.detail.type).toBe("forbidden");
    expect((await as(bob).delete(`/v2/posts/${mine.id}`)).status).toBe(403);
    expect((await as().patch(`/v2/posts/${mine.id}`, { body: "anon" })).status).toBe(401);
    expect((await as().get<Post>(`/v2/posts/${mine.id}`)).body.body).toBe("first draft");

    const edited = await as(ada).patch<Post>(`/v2/posts/${mine.id}`, { body: "second draft" });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: "second draft", title: "Mine", edited: true });
    expect((await as(ada).patch(`/v2/posts/${mine.id}`, {})).status).toBe(422);
    const moderated = await client(t.url, t.adminToken).patch<Post>(`/v2/posts/${mine.id}`, {
      title: "Mine (moderated)",
    });
    expect(moderated.status).toBe(200);

    const gone = await as(ada).delete<{ id: string; deleted: boolean }>(`/v2/posts/${mine.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id: mine.id, deleted: true });
    expect((await as().get(`/v2/posts/${mine.id}`)).status).toBe(404);
    const other = await post(bob, { title: "Bob's", body: "x" });
    expect((await client(t.url, t.adminToken).delete(`/v2/posts/${other.id}`)).status).toBe(200);
  });

  it("counts one vote per user, changeable, and refuses any value but -1, 0, 1", async () => {
    const p = await post(ada, { title: "Vote on me", body: "please" });
    const up = await as(bob).put<Post>(`/v2/posts/${p.id}/vote`, { value: 1 });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ score: 1, my_vote: 1 });
    expect((await as(bob).put<Post>(`/v2/posts/${p.id}/vote`, { value: 1 })).body.score).toBe(1);
    expect((await as(ada).put<Post>(`/v2/posts/${p.id}/vote`, { value: 1 })).body.score).toBe(2);
    expect((await as(bob).put<Post>(`/v2/posts/${p.id}/vote`, { value: -1 })).body).toMatchObject({
      score: 0,
      my_vote: -1,
    });
    expect((await as(bob).put<Post>(`/v2/posts/${p.id}/vote`, { value: 0 })).body).toMatchObject({
      score: 1,
      my_vote: 0,
    });
    for (const value of [2, -2, 0.5, "1", null])
      expect((await as(bob).put(`/v2/posts/${p.id}/vote`, { value })).status).toBe(422);
    expect((await as(bob).put(`/v2/posts/${p.id}/vote`, {})).status).toBe(422);
    expect((await as().put(`/v2/posts/${p.id}/vote`, { value: 1 })).status).toBe(401);
    expect(
      (await as(bob).put("/v2/posts/post_00000000-0000-4000-8000-000000000000/vote", { value: 1 }))
        .status,
    ).toBe(404);
    expect((await as(ada).get<PostDetail>(`/v2/posts/${p.id}`)).body).toMatchObject({
      score: 1,
      my_vote: 1,
    });
    expect((await as().get<PostDetail>(`/v2/posts/${p.id}`)).body.my_vote).toBe(0);
  });

  it("takes comments and replies, votes on them, and lets only their author change them", async () => {
    const p = await post(ada, { title: "Discuss", body: "thoughts?" });
    const c1 = await as(bob).post<Comment>(`/v2/posts/${p.id}/comments`, {
      body: "I'd go *east*. <script>x</script>",
    });
    expect(c1.status, c1.text).toBe(201);
    expect(c1.body.body_html).toContain("<em>east</em>");
    expect(c1.body.body_html).not.toContain("<script");
    const reply = await as(ada).post<Comment>(`/v2/posts/${p.id}/comments`, {
      body: "why?",
      parent_comment_id: c1.body.id,
    });
    expect(reply.status).toBe(201);
    expect(reply.body.parent_comment_id).toBe(c1.body.id);
    expect(
      (
        await as(ada).post(`/v2/posts/${p.id}/comments`, {
          body: "x",
          parent_comment_id: "cmt_00000000-0000-4000-8000-000000000000",
        })
      ).status,
    ).toBe(422);

    const voted = await as(ada).put<Comment>(`/v2/posts/${p.id}/comments/${c1.body.id}/vote`, {
      value: -1,
    });
    expect(voted.body).toMatchObject({ score: -1, my_vote: -1 });
    expect(
      (await as(ada).put(`/v2/posts/${p.id}/comments/${c1.body.id}/vote`, { value: 5 })).status,
    ).toBe(422);

    expect(
      (await as(ada).patch(`/v2/posts/${p.id}/comments/${c1.body.id}`, { body: "not yours" }))
        .status,
    ).toBe(403);
    expect((await as(ada).delete(`/v2/posts/${p.id}/comments/${c1.body.id}`)).status).toBe(403);
    expect(
      (
        await as(bob).patch<Comment>(`/v2/posts/${p.id}/comments/${c1.body.id}`, {
          body: "east, then north",
        })
      ).body.body,
    ).toBe("east, then north");

    const detail = (await as(ada).get<PostDetail>(`/v2/posts/${p.id}`)).body;
    expect(detail.comment_count).toBe(2);
    expect(detail.comments.map((c) => c.id)).toEqual([c1.body.id, reply.body.id]);
    expect(detail.comments[0]?.my_vote).toBe(-1);

    expect((await as(bob).delete(`/v2/posts/${p.id}/comments/${c1.body.id}`)).status).toBe(200);
    expect((await as().get<PostDetail>(`/v2/posts/${p.id}`)).body.comment_count).toBe(1);
    expect((await as(bob).delete(`/v2/posts/${p.id}/comments/${c1.body.id}`)).status).toBe(404);
  });

  it("pages a forum in new, top and hot order with cursors, and searches it", async () => {
    const slug =
      (await as().get<Forum[]>("/v2/forums")).body.find((f) => f.kind === "coworld")?.slug ?? "";
    const made: Post[] = [];
    for (const n of [1, 2, 3, 4, 5])
      made.push(
        await post(ada, { forum: slug, title: `Tactic ${n}`, body: `Note 100%_sure number ${n}` }),
      );
    const [p1, p2, p3, p4, p5] = made.map((p) => p.id);
    await as(ada).put(`/v2/posts/${p2}/vote`, { value: 1 });
    await as(bob).put(`/v2/posts/${p2}/vote`, { value: 1 });
    await as(bob).put(`/v2/posts/${p4}/vote`, { value: 1 });
    await as(bob).put(`/v2/posts/${p5}/vote`, { value: -1 });

    const all = async (sort: string) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: PostPage; text: string } = await as().get<PostPage>(
          `/v2/forums/${slug}/posts?sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        );
        expect(res.status, res.text).toBe(200);
        expect(res.body.entries.length).toBeLessThanOrEqual(2);
        ids.push(...res.body.entries.map((p) => p.id));
        cursor = res.body.next_cursor;
      } while (cursor);
      return ids;
    };
    expect(await all("new")).toEqual([p5, p4, p3, p2, p1]);
    const top = await all("top");
    expect(top.slice(0, 2)).toEqual([p2, p4]);
    expect(top.at(-1)).toBe(p5);
    const hot = await all("hot");
    expect(hot).toHaveLength(5);
    expect(hot.slice(0, 2)).toEqual([p2, p4]);
    expect(hot.at(-1)).toBe(p5);
    expect((await as().get(`/v2/forums/${slug}/posts?sort=new&cursor=garbage`)).status).toBe(422);
    expect((await as().get(`/v2/forums/${slug}/posts?sort=sideways`)).status).toBe(422);
    expect((await as().get(`/v2/forums/${slug}/posts?limit=0`)).status).toBe(422);

    const found = await as().get<ForumSearchPage>(
      `/v2/forums/${slug}/search?q=${encodeURIComponent("TACTIC 3")}`,
    );
    expect(found.status).toBe(200);
    expect(found.body.entries.map((e) => e.post.id)).toEqual([p3]);
    expect(found.body).toMatchObject({
      result_quality: "exact_within_forum",
      candidate_limit: null,
      older_matches_may_be_omitted: false,
      next_cursor: null,
    });
    // `%` and `_` are searched for literally.
    expect(
      (
        await as().get<ForumSearchPage>(
          `/v2/forums/${slug}/search?q=${encodeURIComponent("100%_sure")}`,
        )
      ).body.entries,
    ).toHaveLength(5);
    expect(
      (await as().get<ForumSearchPage>(`/v2/forums/${slug}/search?q=${encodeURIComponent("0%s")}`))
        .body.entries,
    ).toHaveLength(0);
    expect((await as().get(`/v2/forums/${slug}/search`)).status).toBe(422);
    expect((await as().get("/v2/forums/nowhere/search?q=x")).status).toBe(404);
  });

  it("refuses posts from a runner's machine token", async () => {
    const machine = await t.machineToken("forum-runner");
    expect(
      (
        await client(t.url, machine).post("/v2/posts", {
          forum: "general",
          title: "beep",
          body: "boop",
        })
      ).status,
    ).toBe(403);
  });
  it("answers in the shapes of the hosted service's forum client: named authors, vote counts, replies by parent_id, repeats by key, search over every forum", async () => {
    // A post without a forum goes to the general one, on its one page.
    const player = (await as(ada).post<{ id: string }>("/players", { name: "ada-plays" })).body;
    const playerToken = (await as(ada).post<{ token: string }>(`/players/${player.id}/login`, {}))
      .body.token;
    const created = await as({ token: playerToken }).post<Post>("/v2/posts", {
      title: "Softmax shapes",
      body: "Hello from a zebra player",
      idempotency_key: "softmax-1",
      page: "main",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      forum: "general",
      page: "main",
      vote_count: 0,
      author: { type: "player", player_id: player.id, user_id: ada.id, name: "ada-plays" },
    });
    const byUser = await post(bob, { title: "Zebra by a user", body: "zebra" });
    expect(byUser.author).toMatchObject({ type: "user", user_id: bob.id, player_id: null });
    expect(byUser.author.name).not.toContain("@");

    // A vote answers the caller's vote with the score and how many voted.
    const up = await as(bob).put<VotedPost>(`/v2/posts/${created.body.id}/vote`, { value: 1 });
    expect(up.body).toMatchObject({ value: 1, score: 1, vote_count: 1 });
    const down = await as(ada).put<VotedPost>(`/v2/posts/${created.body.id}/vote`, { value: -1 });
    expect(down.body).toMatchObject({ value: -1, score: 0, vote_count: 2 });
    const off = await as(ada).put<VotedPost>(`/v2/posts/${created.body.id}/vote`, { value: 0 });
    expect(off.body).toMatchObject({ value: 0, score: 1, vote_count: 1 });

    // Comments: a reply names its parent as parent_id; a repeated key answers the first comment.
    const top = await as(bob).post<Comment>(`/v2/posts/${created.body.id}/comments`, {
      body: "top",
      idempotency_key: "c-1",
    });
    expect(top.status, top.text).toBe(201);
    const again = await as(bob).post<Comment>(`/v2/posts/${created.body.id}/comments`, {
      body: "top",
      idempotency_key: "c-1",
    });
    expect(again.body.id).toBe(top.body.id);
    const reused = await as(bob).post<{ detail: { type: string } }>(
      `/v2/posts/${created.body.id}/comments`,
      { body: "other", idempotency_key: "c-1" },
    );
    expect(reused.status).toBe(409);
    expect(reused.body.detail.type).toBe("idempotency_key_reused");
    const reply = await as(ada).post<Comment>(`/v2/posts/${created.body.id}/comments`, {
      body: "reply",
      parent_id: top.body.id,
      idempotency_key: "c-2",
    });
    expect(reply.body).toMatchObject({ parent_id: top.body.id, parent_comment_id: top.body.id });
    const voted = await as(ada).put<VotedComment>(
      `/v2/posts/${created.body.id}/comments/${top.body.id}/vote`,
      { value: 1 },
    );
    expect(voted.body).toMatchObject({ value: 1, score: 1, vote_count: 1 });
    const detail = (await as().get<PostDetail>(`/v2/posts/${created.body.id}`)).body;
    expect(detail.comment_count).toBe(2);
    expect(detail.comments.map((c) => c.author.type)).toEqual(["user", "user"]);

    // Search across every forum, by author, a page at a time.
    const everywhere = await as().get<ForumSearchPage>("/v2/forums/search?q=zebra&limit=1");
    expect(everywhere.status, everywhere.text).toBe(200);
    expect(everywhere.body.entries.map((e) => e.post.id)).toEqual([byUser.id]);
    expect(everywhere.body.entries[0]?.rank).toBe(2);
    const rest = await as().get<ForumSearchPage>(
      `/v2/forums/search?q=zebra&limit=1&cursor=${everywhere.body.next_cursor ?? ""}`,
    );
    expect(rest.body.entries.map((e) => e.post.id)).toEqual([created.body.id]);
    expect(rest.body.next_cursor).toBeNull();
    const byPlayer = await as().get<ForumSearchPage>(
      `/v2/forums/search?q=zebra&author_player_id=${player.id}`,
    );
    expect(byPlayer.body.entries.map((e) => e.post.id)).toEqual([created.body.id]);
    const byBob = await as().get<ForumSearchPage>(
      `/v2/forums/search?q=zebra&author_user_id=${bob.id}`,
    );
    expect(byBob.body.entries.map((e) => e.post.id)).toEqual([byUser.id]);
    expect((await as().get("/v2/forums/search?q=zebra&cursor=bad")).status).toBe(422);
    expect((await as(ada).post("/v2/posts", { title: "x", body: "y", page: "side" })).status).toBe(
      422,
    );
  });
});
