// Rows of posts and comments as the contract shows them, with the caller's own votes.
import type { Kysely } from "kysely";

import type { Comment, Post, VoteValue } from "@gauntlet/core";

import { isAuthenticated, type Identity } from "../auth/identity.ts";
import { renderContent, renderMarkdown } from "../http/markdown.ts";
import type { Database, PostCommentsTable, PostsTable } from "../store/schema.ts";

export async function myVotes(
  db: Kysely<Database>,
  identity: Identity,
  targetIds: readonly string[],
): Promise<Map<string, VoteValue>> {
  if (!isAuthenticated(identity) || targetIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("forum_votes")
    .select(["target_id", "value"])
    .where("user_id", "=", identity.userId)
    .where("target_id", "in", targetIds)
    .execute();
  return new Map(rows.map((r) => [r.target_id, asVote(r.value)]));
}

function asVote(value: number): VoteValue {
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

export function toPost(row: PostsTable, forumSlug: string, myVote: VoteValue): Post {
  return {
    id: row.id,
    forum: forumSlug,
    title: row.title,
    body: row.body,
    content_format: row.content_format === "text" ? "text" : "markdown",
    body_html: renderContent(row.body, row.content_format),
    author: { user_id: row.author_user_id, player_id: row.author_player_id },
    score: Number(row.score),
    comment_count: Number(row.comment_count),
    my_vote: myVote,
    created_at: row.created_at,
    updated_at: row.updated_at,
    edited: row.edited_at !== null,
  };
}

export function toComment(row: PostCommentsTable, myVote: VoteValue): Comment {
  return {
    id: row.id,
    post_id: row.post_id,
    parent_comment_id: row.parent_comment_id,
    body: row.body,
    body_html: renderMarkdown(row.body),
    author: { user_id: row.author_user_id, player_id: row.author_player_id },
    score: Number(row.score),
    my_vote: myVote,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Posts joined with their forum's slug, ready for `toPost`. */
export async function viewPosts(
  db: Kysely<Database>,
  identity: Identity,
  rows: readonly (PostsTable & { forum_slug: string })[],
): Promise<Post[]> {
  const votes = await myVotes(
    db,
    identity,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toPost(r, r.forum_slug, votes.get(r.id) ?? 0));
}
