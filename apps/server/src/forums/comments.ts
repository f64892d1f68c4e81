// Comments on posts (replies name their parent comment); changed or deleted only by their
// author or an admin. The post keeps a count of its comments.
import type { Kysely } from "kysely";

import { newId, type Comment } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import { invalidInput, notFound } from "../shared/errors.ts";
import type { Database, PostCommentsTable } from "../store/schema.ts";
import { authorOf, requireAuthorOrAdmin, requireWriter } from "./authors.ts";
import { myVotes, toComment } from "./post-view.ts";
import { postRow } from "./posts.ts";

export async function commentRow(
  db: Kysely<Database>,
  postId: string,
  commentId: string,
): Promise<PostCommentsTable> {
  const row = await db
    .selectFrom("post_comments")
    .selectAll()
    .where("id", "=", commentId)
    .where("post_id", "=", postId)
    .executeTakeFirst();
  if (!row) throw notFound("Comment", commentId);
  return row;
}

export async function viewComment(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  commentId: string,
): Promise<Comment> {
  const row = await commentRow(db, postId, commentId);
  const votes = await myVotes(db, identity, [row.id]);
  return toComment(row, votes.get(row.id) ?? 0);
}

export async function createComment(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  body: { body: string; parent_comment_id?: string | undefined },
): Promise<Comment> {
  requireWriter(identity, "Comments");
  await postRow(db, postId);
  const parent = body.parent_comment_id ?? null;
  if (parent !== null) {
    const found = await db
      .selectFrom("post_comments")
      .select("id")
      .where("id", "=", parent)
      .where("post_id", "=", postId)
      .executeTakeFirst();
    if (!found)
      throw invalidInput(
        ["body", "parent_comment_id"],
        "no comment of this post has this id",
        "value_error",
        parent,
      );
  }
  const now = nowIso();
  const row: PostCommentsTable = {
    id: newId("comment"),
    post_id: postId,
    parent_comment_id: parent,
    body: body.body,
    ...authorOf(identity),
    score: 0,
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("post_comments").values(row).execute();
    await trx
      .updateTable("posts")
      .set((eb) => ({ comment_count: eb("comment_count", "+", 1) }))
      .where("id", "=", postId)
      .execute();
  });
  return toComment(row, 0);
}

export async function updateComment(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  commentId: string,
  body: { body: string },
): Promise<Comment> {
  const row = await commentRow(db, postId, commentId);
  requireAuthorOrAdmin(identity, row.author_user_id, "comment");
  await db
    .updateTable("post_comments")
    .set({ body: body.body, updated_at: nowIso() })
    .where("id", "=", commentId)
    .execute();
  return viewComment(db, identity, postId, commentId);
}

export async function deleteComment(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  commentId: string,
): Promise<{ id: string; deleted: true }> {
  const row = await commentRow(db, postId, commentId);
  requireAuthorOrAdmin(identity, row.author_user_id, "comment");
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("forum_votes").where("target_id", "=", commentId).execute();
    await trx.deleteFrom("post_comments").where("id", "=", commentId).execute();
    await trx
      .updateTable("posts")
      .set((eb) => ({ comment_count: eb("comment_count", "-", 1) }))
      .where("id", "=", postId)
      .execute();
  });
  return { id: commentId, deleted: true };
}
