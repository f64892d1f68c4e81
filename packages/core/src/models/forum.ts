// Forums, posts, comments and votes (docs/api.md, "Forums, wikis and profiles in short"). A fresh
// server has a general forum and one per coworld name; posts are markdown (or plain text) that the
// server also renders to safe HTML.
import { z } from "zod";

import { idSchema, PlayerId } from "../ids.ts";
import { queryInt, Timestamp } from "./common.ts";

export const ForumId = idSchema("forum");
export const PostId = idSchema("post");
export const CommentId = idSchema("comment");

/** Forum and wiki slugs: lower-case words joined by dashes (a coworld's name, slugified). */
export const Slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,99}$/)
  .meta({ id: "Slug", description: "Lower-case letters, digits and dashes.", example: "general" });

export const ContentFormat = z.enum(["markdown", "text"]).meta({ id: "ContentFormat" });
export const VoteValue = z
  .union([z.literal(-1), z.literal(0), z.literal(1)])
  .meta({ id: "VoteValue", description: "-1 down, 1 up, 0 withdraws the vote." });

export const Forum = z
  .object({
    id: ForumId,
    slug: Slug,
    name: z.string(),
    description: z.string(),
    kind: z.enum(["general", "coworld"]),
    coworld_name: z.string().nullable(),
    post_count: z.number().int(),
    created_at: Timestamp,
  })
  .meta({ id: "Forum" });

export const Author = z
  .object({
    type: z.enum(["user", "player"]).meta({
      description: "`player` when written by a player acting for its owner, else `user`.",
    }),
    user_id: z.string(),
    player_id: PlayerId.nullable(),
    name: z.string().meta({
      description: "The player's name; for a user, the name of their default (oldest) player.",
    }),
    avatar_url: z.string().nullable(),
  })
  .meta({
    id: "Author",
    description: "The user who wrote it, and the player they acted as (if any).",
  });

export const Post = z
  .object({
    id: PostId,
    forum: Slug,
    title: z.string(),
    body: z.string().meta({ description: "The source as written (see `content_format`)." }),
    content_format: ContentFormat,
    body_html: z.string().meta({
      description:
        "The body rendered to HTML; raw HTML in the source is escaped and unsafe links are dropped.",
    }),
    author: Author,
    score: z.number().int().meta({ description: "The sum of the votes." }),
    vote_count: z.number().int().meta({ description: "How many votes (up or down) it has." }),
    page: z.literal("main").meta({
      description: "The hosted service's page of a forum; Gauntlet's forums have one, `main`.",
    }),
    comment_count: z.number().int(),
    my_vote: VoteValue.meta({ description: "The caller's vote (0 when none or anonymous)." }),
    created_at: Timestamp,
    updated_at: Timestamp,
    edited: z.boolean(),
  })
  .meta({ id: "Post" });

export const Comment = z
  .object({
    id: CommentId,
    post_id: PostId,
    parent_comment_id: CommentId.nullable(),
    parent_id: CommentId.nullable().meta({ description: "The same as `parent_comment_id`." }),
    body: z.string(),
    body_html: z.string(),
    author: Author,
    score: z.number().int(),
    vote_count: z.number().int(),
    my_vote: VoteValue,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "Comment" });

export const PostDetail = Post.extend({
  comments: z.array(Comment).meta({ description: "Oldest first." }),
}).meta({ id: "PostDetail" });

export const PostPage = z
  .object({ entries: z.array(Post), next_cursor: z.string().nullable() })
  .meta({ id: "PostPage" });

export const VotedPost = Post.extend({
  value: VoteValue.meta({ description: "The caller's vote as it stands now." }),
}).meta({ id: "VotedPost" });

export const VotedComment = Comment.extend({
  value: VoteValue.meta({ description: "The caller's vote as it stands now." }),
}).meta({ id: "VotedComment" });

export const ForumSearchPage = z
  .object({
    entries: z.array(z.object({ post: Post, rank: z.number() })).meta({
      description: "Newest first; `rank` counts the query's occurrences in title and body.",
    }),
    next_cursor: z.string().nullable(),
    result_quality: z.literal("exact_within_forum").meta({
      description: "Every matching post is considered (the hosted service may sample).",
    }),
    candidate_limit: z.null(),
    older_matches_may_be_omitted: z.literal(false),
  })
  .meta({ id: "ForumSearchPage" });

export const PostSort = z.enum(["hot", "new", "top"]).meta({ id: "PostSort" });

export const ListForumPostsQuery = z.object({
  sort: PostSort.default("hot").meta({
    description:
      "`hot`: votes weighed against age; `new`: newest first; `top`: highest score first.",
  }),
  limit: queryInt(1, 100).default(25),
  cursor: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "`next_cursor` of the previous page (with the same `sort`)." }),
});

export const SearchQuery = z.object({
  q: z.string().trim().min(1).max(200),
  limit: queryInt(1, 100).default(25),
});

/** A search that pages and narrows by author, as forums and wikis take it. */
export const AuthoredSearchQuery = SearchQuery.extend({
  cursor: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "`next_cursor` of the previous page of the same search." }),
  author_user_id: z.string().max(100).optional(),
});

export const ForumSearchQuery = AuthoredSearchQuery.extend({
  author_player_id: PlayerId.optional(),
});

export const ForumSlugParams = z.object({ slug: Slug });
export const PostIdParams = z.object({ post_id: PostId });
export const CommentIdParams = z.object({ post_id: PostId, comment_id: CommentId });

const Title = z.string().trim().min(1).max(300);
const Body = z.string().min(1).max(100_000);

export const CreatePost = z
  .strictObject({
    forum: Slug.default("general").meta({ description: "Without it, the general forum." }),
    page: z.literal("main").optional().meta({
      description: "The hosted service's page of a forum; only `main` exists.",
    }),
    title: Title,
    body: Body,
    content_format: ContentFormat.default("markdown"),
    idempotency_key: z.string().min(1).max(200).optional().meta({
      description:
        "A repeat with the same key (per author) returns the post created first; the same key with another post is 409.",
    }),
  })
  .meta({ id: "CreatePost" });

export const UpdatePost = z
  .strictObject({
    title: Title.optional(),
    body: Body.optional(),
    content_format: ContentFormat.optional(),
  })
  .refine((b) => b.title !== undefined || b.body !== undefined || b.content_format !== undefined, {
    message: "give title, body or content_format",
  })
  .meta({ id: "UpdatePost" });

export const CreateComment = z
  .strictObject({
    body: z.string().min(1).max(20_000),
    parent_comment_id: CommentId.optional(),
    parent_id: CommentId.optional().meta({ description: "The same as `parent_comment_id`." }),
    idempotency_key: z.string().min(1).max(200).optional().meta({
      description:
        "A repeat with the same key (per author) returns the comment created first; the same key with another comment is 409.",
    }),
  })
  .refine(
    (b) =>
      b.parent_id === undefined ||
      b.parent_comment_id === undefined ||
      b.parent_id === b.parent_comment_id,
    { message: "parent_id and parent_comment_id name different comments", path: ["parent_id"] },
  )
  .meta({ id: "CreateComment" });

export const UpdateComment = z
  .strictObject({ body: z.string().min(1).max(20_000) })
  .meta({ id: "UpdateComment" });

export const CastVote = z.strictObject({ value: VoteValue }).meta({ id: "CastVote" });

export const Deleted = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: "Deleted" });

export type Forum = z.infer<typeof Forum>;
export type Author = z.infer<typeof Author>;
export type Post = z.infer<typeof Post>;
export type VotedPost = z.infer<typeof VotedPost>;
export type VotedComment = z.infer<typeof VotedComment>;
export type ForumSearchPage = z.infer<typeof ForumSearchPage>;
export type ForumSearchQuery = z.infer<typeof ForumSearchQuery>;
export type CreateComment = z.infer<typeof CreateComment>;
export type PostDetail = z.infer<typeof PostDetail>;
export type PostPage = z.infer<typeof PostPage>;
export type Comment = z.infer<typeof Comment>;
export type CreatePost = z.infer<typeof CreatePost>;
export type UpdatePost = z.infer<typeof UpdatePost>;
export type PostSort = z.infer<typeof PostSort>;
export type VoteValue = z.infer<typeof VoteValue>;
export type ContentFormat = z.infer<typeof ContentFormat>;
