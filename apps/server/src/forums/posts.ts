// Posts: written in a forum, read in pages (hot, new, top) or found by search; changed or
// deleted only by their author or an admin. An `idempotency_key` makes a repeated create
// return the post created first.
import { sql, type Kysely } from "kysely";

import {
  newId,
  type CreatePost,
  type ForumSearchPage,
  type ForumSearchQuery,
  type Post,
  type PostDetail,
  type PostPage,
  type PostSort,
  type UpdatePost,
} from "@gauntlet/core";

import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, ifNotFound, invalidInput, notFound } from "../shared/errors.ts";
import { containsPattern } from "../shared/like-pattern.ts";
import { decodeCursor, encodeCursor, type CursorKey } from "../shared/page-cursor.ts";
import type { Database, PostsTable } from "../store/schema.ts";
import { authorOf, requireAuthorOrAdmin, requireWriter } from "./authors.ts";
import { forumBySlug } from "./forums.ts";
import { viewComments, viewPosts } from "./post-view.ts";
import { hotRank } from "./ranking.ts";

type PostRow = PostsTable & { forum_slug: string };

function postsWithForum(db: Kysely<Database>) {
  return db
    .selectFrom("posts")
    .innerJoin("forums", "forums.id", "posts.forum_id")
    .selectAll("posts")
    .select("forums.slug as forum_slug");
}

export async function postRow(db: Kysely<Database>, postId: string): Promise<PostRow> {
  const row = await postsWithForum(db).where("posts.id", "=", postId).executeTakeFirst();
  if (!row) throw notFound("Post", postId);
  return row;
}

export async function viewPost(
  db: Kysely<Database>,
  identity: Identity,
  postId: string,
): Promise<Post> {
  const [post] = await viewPosts(db, identity, [await postRow(db, postId)]);
  if (!post) throw notFound("Post", postId);
  return post;
}

function sameContent(row: PostsTable, forumId: string, body: CreatePost): boolean {
  return (
    row.forum_id === forumId &&
    row.title === body.title &&
    row.body === body.body &&
    row.content_format === body.content_format
  );
}

export async function createPost(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  body: CreatePost,
): Promise<Post> {
  requireWriter(identity, "Posts");
  const forum = await ifNotFound(forumBySlug(db, body.forum), () =>
    invalidInput(
      ["body", "forum"],
      `no forum has the slug ${body.forum}`,
      "value_error",
      body.forum,
    ),
  );
  const key = body.idempotency_key ?? null;
  const findRepeat = async () => {
    if (key === null) return undefined;
    const row = await db
      .selectFrom("posts")
      .selectAll()
      .where("author_user_id", "=", identity.userId)
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
    if (row && !sameContent(row, forum.id, body))
      throw conflict("This idempotency_key was used for another post.", "idempotency_key_reused");
    return row;
  };
  const repeat = await findRepeat();
  if (repeat) return viewPost(db, identity, repeat.id);
  const now = nowIso();
  const row: PostsTable = {
    id: newId("post"),
    forum_id: forum.id,
    title: body.title,
    body: body.body,
    content_format: body.content_format,
    ...authorOf(identity),
    idempotency_key: key,
    score: 0,
    hot_rank: hotRank(0, now),
    comment_count: 0,
    created_at: now,
    updated_at: now,
    edited_at: null,
  };
  // Two concurrent repeats: the unique (author, key) index lets one insert; the other reads it.
  const inserted = await db
    .insertInto("posts")
    .values(row)
    .onConflict((oc) => oc.columns(["author_user_id", "idempotency_key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const winner = await findRepeat();
    if (!winner)
      throw conflict(
        "A post with this idempotency_key is being written; retry.",
        "idempotency_key_in_progress",
      );
    return viewPost(db, identity, winner.id);
  }
  return viewPost(db, identity, row.id);
}

export async function getPost(
  db: Kysely<Database>,
  identity: Identity,
  postId: string,
): Promise<PostDetail> {
  const post = await viewPost(db, identity, postId);
  const rows = await db
    .selectFrom("post_comments")
    .selectAll()
    .where("post_id", "=", postId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return { ...post, comments: await viewComments(db, identity, rows) };
}

/** The markdown source with the title as its first heading. */
export async function postMarkdown(db: Kysely<Database>, postId: string): Promise<string> {
  const row = await postRow(db, postId);
  return `# ${row.title}\n\n${row.body.endsWith("\n") ? row.body : `${row.body}\n`}`;
}

const SORT_COLUMN = { new: "posts.created_at", top: "posts.score", hot: "posts.hot_rank" } as const;

function decodeSortCursor(cursor: string, sort: PostSort): [CursorKey, string] {
  return decodeCursor(
    cursor,
    sort === "new" ? "string" : "number",
    "not a next_cursor of this listing (with this sort)",
  );
}

export async function listForumPosts(
  db: Kysely<Database>,
  identity: Identity,
  slug: string,
  query: { sort: PostSort; limit: number; cursor?: string | undefined },
): Promise<PostPage> {
  const forum = await forumBySlug(db, slug);
  const column = sql.ref<CursorKey>(SORT_COLUMN[query.sort]);
  let q = postsWithForum(db).where("posts.forum_id", "=", forum.id);
  if (query.cursor !== undefined) {
    const [key, id] = decodeSortCursor(query.cursor, query.sort);
    q = q.where((eb) =>
      eb.or([eb(column, "<", key), eb.and([eb(column, "=", key), eb("posts.id", "<", id)])]),
    );
  }
  const rows = await q
    .orderBy(column, "desc")
    .orderBy("posts.id", "desc")
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const next =
    rows.length > query.limit && last
      ? encodeCursor(
          query.sort === "new"
            ? last.created_at
            : query.sort === "top"
              ? Number(last.score)
              : Number(last.hot_rank),
          last.id,
        )
      : null;
  return { entries: await viewPosts(db, identity, page), next_cursor: next };
}

/** How often `q` occurs in the post's title and body (case-insensitive): a search hit's rank. */
function occurrences(post: Post, q: string): number {
  const needle = q.toLowerCase();
  const count = (text: string) => text.toLowerCase().split(needle).length - 1;
  return count(post.title) + count(post.body);
}

/** Posts of one forum (or of every forum) whose title or body contains `q`, newest first. */
export async function searchPosts(
  db: Kysely<Database>,
  identity: Identity,
  forumSlug: string | null,
  query: ForumSearchQuery,
): Promise<ForumSearchPage> {
  const forum = forumSlug === null ? null : await forumBySlug(db, forumSlug);
  const pattern = containsPattern(query.q);
  let q = postsWithForum(db).where((eb) =>
    eb.or([
      sql<boolean>`lower(posts.title) like ${pattern} escape '\\'`,
      sql<boolean>`lower(posts.body) like ${pattern} escape '\\'`,
    ]),
  );
  if (forum) q = q.where("posts.forum_id", "=", forum.id);
  if (query.author_user_id !== undefined)
    q = q.where("posts.author_user_id", "=", query.author_user_id);
  if (query.author_player_id !== undefined)
    q = q.where("posts.author_player_id", "=", query.author_player_id);
  if (query.cursor !== undefined) {
    const [key, id] = decodeCursor(query.cursor, "string");
    q = q.where((eb) =>
      eb.or([
        eb("posts.created_at", "<", String(key)),
        eb.and([eb("posts.created_at", "=", String(key)), eb("posts.id", "<", id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const posts = await viewPosts(db, identity, page);
  return {
    entries: posts.map((post) => ({ post, rank: occurrences(post, query.q) })),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last.created_at, last.id) : null,
    result_quality: "exact_within_forum",
    candidate_limit: null,
    older_matches_may_be_omitted: false,
  };
}

export async function updatePost(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  body: UpdatePost,
): Promise<Post> {
  const row = await postRow(db, postId);
  requireAuthorOrAdmin(identity, row.author_user_id, "post");
  const now = nowIso();
  await db
    .updateTable("posts")
    .set({
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.body !== undefined ? { body: body.body } : {}),
      ...(body.content_format !== undefined ? { content_format: body.content_format } : {}),
      updated_at: now,
      edited_at: now,
    })
    .where("id", "=", postId)
    .execute();
  return viewPost(db, identity, postId);
}

export async function deletePost(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
): Promise<{ id: string; deleted: true }> {
  const row = await postRow(db, postId);
  requireAuthorOrAdmin(identity, row.author_user_id, "post");
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("forum_votes")
      .where((eb) =>
        eb.or([
          eb("target_id", "=", postId),
          eb(
            "target_id",
            "in",
            trx.selectFrom("post_comments").select("id").where("post_id", "=", postId),
          ),
        ]),
      )
      .execute();
    await trx.deleteFrom("post_comments").where("post_id", "=", postId).execute();
    await trx.deleteFrom("posts").where("id", "=", postId).execute();
  });
  return { id: postId, deleted: true };
}
