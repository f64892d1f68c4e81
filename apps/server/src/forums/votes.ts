// Votes on posts and comments: one per user per target, changeable; 0 withdraws it. The
// target's score is recounted from the votes in the same transaction (and a post's hot rank
// with it), so concurrent votes never drift from the sum.
import type { Kysely, Transaction } from "kysely";

import type { VotedComment, VotedPost, VoteValue } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { requireWriter } from "./authors.ts";
import { commentRow, viewComment } from "./comments.ts";
import { postRow, viewPost } from "./posts.ts";
import { hotRank } from "./ranking.ts";

async function recordVote(
  trx: Transaction<Database>,
  userId: string,
  targetId: string,
  value: VoteValue,
): Promise<number> {
  if (value === 0)
    await trx
      .deleteFrom("forum_votes")
      .where("target_id", "=", targetId)
      .where("user_id", "=", userId)
      .execute();
  else {
    await trx
      .insertInto("forum_votes")
      .values({ target_id: targetId, user_id: userId, value, updated_at: nowIso() })
      .onConflict((oc) =>
        oc.columns(["target_id", "user_id"]).doUpdateSet({ value, updated_at: nowIso() }),
      )
      .execute();
  }
  const sum = await trx
    .selectFrom("forum_votes")
    .select((eb) => eb.fn.sum<number | string | null>("value").as("score"))
    .where("target_id", "=", targetId)
    .executeTakeFirst();
  return Number(sum?.score ?? 0);
}

export async function votePost(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  value: VoteValue,
): Promise<VotedPost> {
  requireWriter(identity, "Votes");
  const post = await postRow(db, postId);
  await db.transaction().execute(async (trx) => {
    const score = await recordVote(trx, identity.userId, postId, value);
    await trx
      .updateTable("posts")
      .set({ score, hot_rank: hotRank(score, post.created_at) })
      .where("id", "=", postId)
      .execute();
  });
  return { ...(await viewPost(db, identity, postId)), value };
}

export async function voteComment(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  postId: string,
  commentId: string,
  value: VoteValue,
): Promise<VotedComment> {
  requireWriter(identity, "Votes");
  await commentRow(db, postId, commentId);
  await db.transaction().execute(async (trx) => {
    const score = await recordVote(trx, identity.userId, commentId, value);
    await trx.updateTable("post_comments").set({ score }).where("id", "=", commentId).execute();
  });
  return { ...(await viewComment(db, identity, postId, commentId)), value };
}
