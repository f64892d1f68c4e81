// Rows of posts and comments as the contract shows them: with their authors' names, how many
// votes they have, and the caller's own votes.
import type { Kysely } from "kysely";

import type { Comment, Post, VoteValue } from "@gauntlet/core";

import { isAuthenticated, type Identity } from "../auth/identity.ts";
import { renderContent, renderMarkdown } from "../http/markdown.ts";
import type { Database, PostCommentsTable, PostsTable } from "../store/schema.ts";
import { authorsOf, type AuthorOf } from "./authors-view.ts";

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

/** How many votes (up or down) each target has; a withdrawn vote is no row. */
async function voteCounts(
  db: Kysely<Database>,
  targetIds: readonly string[],
): Promise<Map<string, number>> {
  if (targetIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("forum_votes")
    .select((eb) => ["target_id", eb.fn.countAll<number | string>().as("n")])
    .where("target_id", "in", targetIds)
    .groupBy("target_id")
    .execute();
  return new Map(rows.map((r) => [r.target_id, Number(r.n)]));
}

function asVote(value: number): VoteValue {
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

interface Extras {
  myVote: VoteValue;
  voteCount: number;
  authorOf: AuthorOf;
}

function toPost(row: PostsTable, forumSlug: string, extras: Extras): Post {
  return {
    id: row.id,
    forum: forumSlug,
    page: "main",
    title: row.title,
    body: row.body,
    content_format: row.content_format === "text" ? "text" : "markdown",
    body_html: renderContent(row.body, row.content_format),
    author: extras.authorOf(row),
    score: Number(row.score),
    vote_count: extras.voteCount,
    comment_count: Number(row.comment_count),
    my_vote: extras.myVote,
    created_at: row.created_at,
    updated_at: row.updated_at,
    edited: row.edited_at !== null,
  };
}

function toComment(row: PostCommentsTable, extras: Extras): Comment {
  return {
    id: row.id,
    post_id: row.post_id,
    parent_comment_id: row.parent_comment_id,
    parent_id: row.parent_comment_id,
    body: row.body,
    body_html: renderMarkdown(row.body),
    author: extras.authorOf(row),
    score: Number(row.score),
    vote_count: extras.voteCount,
    my_vote: extras.myVote,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function extrasFor(
  db: Kysely<Database>,
  identity: Identity,
  rows: readonly (PostsTable | PostCommentsTable)[],
): Promise<(id: string) => Extras> {
  const ids = rows.map((r) => r.id);
  const [votes, counts, authorOf] = await Promise.all([
    myVotes(db, identity, ids),
    voteCounts(db, ids),
    authorsOf(db, rows),
  ]);
  return (id) => ({ myVote: votes.get(id) ?? 0, voteCount: counts.get(id) ?? 0, authorOf });
}

/** Posts joined with their forum's slug, as the contract shows them. */
export async function viewPosts(
  db: Kysely<Database>,
  identity: Identity,
  rows: readonly (PostsTable & { forum_slug: string })[],
): Promise<Post[]> {
  const extras = await extrasFor(db, identity, rows);
  return rows.map((r) => toPost(r, r.forum_slug, extras(r.id)));
}

/** Comments as the contract shows them. */
export async function viewComments(
  db: Kysely<Database>,
  identity: Identity,
  rows: readonly PostCommentsTable[],
): Promise<Comment[]> {
  const extras = await extrasFor(db, identity, rows);
  return rows.map((r) => toComment(r, extras(r.id)));
}
