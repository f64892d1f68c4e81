// The handlers of the forum, post, comment and vote operations.
import { defineHandlers, REPLIED } from "../http/handler.ts";
import { createComment, deleteComment, updateComment } from "./comments.ts";
import { listForums } from "./forums.ts";
import {
  createPost,
  deletePost,
  getPost,
  listForumPosts,
  postMarkdown,
  searchPosts,
  updatePost,
} from "./posts.ts";
import { voteComment, votePost } from "./votes.ts";

export const forumHandlers = defineHandlers({
  listForums: async ({ app }) => listForums(app.store.db),
  listForumPosts: async ({ identity, params, query, app }) =>
    listForumPosts(app.store.db, identity, params.slug, query),
  searchForumPosts: async ({ identity, params, query, app }) =>
    searchPosts(app.store.db, identity, params.slug, query),
  searchForums: async ({ identity, query, app }) =>
    searchPosts(app.store.db, identity, null, query),
  createPost: async ({ identity, body, app }) => createPost(app.store.db, identity, body),
  getPost: async ({ identity, params, app }) => getPost(app.store.db, identity, params.post_id),
  getPostMarkdown: async ({ params, app, reply }) => {
    await reply
      .code(200)
      .type("text/markdown; charset=utf-8")
      .send(await postMarkdown(app.store.db, params.post_id));
    return REPLIED;
  },
  updatePost: async ({ identity, params, body, app }) =>
    updatePost(app.store.db, identity, params.post_id, body),
  deletePost: async ({ identity, params, app }) =>
    deletePost(app.store.db, identity, params.post_id),
  createComment: async ({ identity, params, body, app }) =>
    createComment(app.store.db, identity, params.post_id, body),
  updateComment: async ({ identity, params, body, app }) =>
    updateComment(app.store.db, identity, params.post_id, params.comment_id, body),
  deleteComment: async ({ identity, params, app }) =>
    deleteComment(app.store.db, identity, params.post_id, params.comment_id),
  votePost: async ({ identity, params, body, app }) =>
    votePost(app.store.db, identity, params.post_id, body.value),
  voteComment: async ({ identity, params, body, app }) =>
    voteComment(app.store.db, identity, params.post_id, params.comment_id, body.value),
});
