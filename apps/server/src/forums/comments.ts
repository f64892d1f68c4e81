// Comments on posts (replies name their parent comment); changed or deleted only by their
// author or an admin. The post keeps a count of its comments.
import type { Kysely } from "kysely";

import { newId, type Comment, type CreateComment } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, invalidInput, notFound } from "../shared/errors.ts";
import type { Database, PostCommentsTable } from "../store/schema.ts";
import { authorOf, requireAuthorOrAdmin, requireWriter } from "./authors.ts";
import { viewComments } from "./post-view.ts";
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
  const [comment] = await viewComments(db, identity, [await commentRow(db, postId, commentId)]);
  if (!comment) throw notFound("Comment", commentId);
  return comment;
}

export async function createComment(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  body: CreateComment,
): Promise<Comment> {
  requireWriter(identity, "Comments");
  await postRow(db, postId);
  const parent = body.parent_comment_id ?? body.parent_id ?? null;
  const key = body.idempotency_key ?? null;
  const findRepeat = async () => {
    if (key === null) return undefined;
    const row = await db
      .selectFrom("post_comments")
      .selectAll()
      .where("author_user_id", "=", identity.userId)
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
    if (
      row &&
      (row.post_id !== postId || row.body !== body.body || row.parent_comment_id !== parent)
    )
      throw conflict(
        "This idempotency_key was used for another comment.",
        "idempotency_key_reused",
      );
    return row;
  };
  const repeat = await findRepeat();
  if (repeat) return viewComment(db, identity, postId, repeat.id);
  if (parent !== null) {
    const found = await db
      .selectFrom("post_comments")
      .select("id")
      .where("id", "=", parent)
      .where("post_id", "=", postId)
      .executeTakeFirst();
    if (!found)
      throw invalidInput(
        ["body", body.parent_comment_id === undefined ? "parent_id" : "parent_comment_id"],
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
    idempotency_key: key,
    created_at: now,
    updated_at: now,
  };
  // Two concurrent repeats: the unique (author, key) index lets one insert; the other reads it.
  const inserted = await db.transaction().execute(async (trx) => {
    const result = await trx
      .insertInto("post_comments")
      .values(row)
      .onConflict((oc) => oc.columns(["author_user_id", "idempotency_key"]).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .updateTable("posts")
      .set((eb) => ({ comment_count: eb("comment_count", "+", 1) }))
      .where("id", "=", postId)
      .execute();
    return true;
  });
  if (!inserted) {
    const winner = await findRepeat();
    if (!winner)
      throw conflict(
        "A comment with this idempotency_key is being written; retry.",
        "idempotency_key_in_progress",
      );
    return viewComment(db, identity, postId, winner.id);
  }
  return viewComment(db, identity, postId, row.id);
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
