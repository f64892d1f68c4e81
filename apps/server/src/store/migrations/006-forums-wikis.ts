import { randomUUID } from "node:crypto";

import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

import { slugify } from "../../shared/slug.ts";

// Forums (posts, comments, votes), wikis (pages and their revisions) and players' public
// profiles. A fresh server has the general forum; every coworld name gets a forum and a wiki
// when its first version is uploaded, and the names already uploaded get theirs here.
export const forumsWikis: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("forums")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("coworld_name", "text", (c) => c.unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("posts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("forum_id", "text", (c) => c.notNull().references("forums.id"))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("content_format", "text", (c) => c.notNull())
      .addColumn("author_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("author_player_id", "text")
      .addColumn("idempotency_key", "text")
      .addColumn("score", "integer", (c) => c.notNull())
      .addColumn("hot_rank", "double precision", (c) => c.notNull())
      .addColumn("comment_count", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addColumn("edited_at", "text")
      .execute();
    await db.schema
      .createIndex("posts_author_idempotency")
      .unique()
      .on("posts")
      .columns(["author_user_id", "idempotency_key"])
      .execute();
    await db.schema
      .createIndex("posts_forum_new")
      .on("posts")
      .columns(["forum_id", "created_at", "id"])
      .execute();
    await db.schema
      .createIndex("posts_forum_hot")
      .on("posts")
      .columns(["forum_id", "hot_rank", "id"])
      .execute();
    await db.schema
      .createIndex("posts_forum_top")
      .on("posts")
      .columns(["forum_id", "score", "id"])
      .execute();
    await db.schema
      .createTable("post_comments")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("post_id", "text", (c) => c.notNull().references("posts.id"))
      .addColumn("parent_comment_id", "text")
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("author_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("author_player_id", "text")
      .addColumn("score", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("post_comments_post")
      .on("post_comments")
      .columns(["post_id", "created_at"])
      .execute();
    // One vote per user per post or comment (`target_id` is a post_ or cmt_ id).
    await db.schema
      .createTable("forum_votes")
      .addColumn("target_id", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("value", "integer", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("forum_votes_pk", ["target_id", "user_id"])
      .execute();

    await db.schema
      .createTable("wikis")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("coworld_name", "text", (c) => c.unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("wiki_pages")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("wiki_id", "text", (c) => c.notNull().references("wikis.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("current_revision_id", "text", (c) => c.notNull())
      .addColumn("revision_count", "integer", (c) => c.notNull())
      .addColumn("updated_by_user_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("wiki_pages_wiki_name", ["wiki_id", "name"])
      .execute();
    await db.schema
      .createTable("wiki_revisions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("page_id", "text", (c) => c.notNull().references("wiki_pages.id"))
      .addColumn("parent_revision_id", "text")
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("summary", "text")
      .addColumn("author_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("wiki_revisions_page")
      .on("wiki_revisions")
      .columns(["page_id", "created_at"])
      .execute();

    await db.schema
      .createTable("player_profiles")
      .addColumn("player_id", "text", (c) => c.primaryKey().references("players.id"))
      .addColumn("display_name", "text")
      .addColumn("avatar_url", "text")
      .addColumn("bio", "text")
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    const now = new Date().toISOString();
    await sql`insert into forums (id, slug, name, description, kind, coworld_name, created_at) values (${`forum_${randomUUID()}`}, 'general', 'General', 'Everything about the leagues that is not about one game.', 'general', null, ${now})`.execute(
      db,
    );
    const names = await sql<{
      name: string;
    }>`select distinct name from coworlds order by name`.execute(db);
    const taken = new Set(["general"]);
    for (const { name } of names.rows) {
      const slug = slugify(name, (s) => taken.has(s));
      taken.add(slug);
      await sql`insert into forums (id, slug, name, description, kind, coworld_name, created_at) values (${`forum_${randomUUID()}`}, ${slug}, ${name}, ${`Strategies, questions and news about ${name}.`}, 'coworld', ${name}, ${now})`.execute(
        db,
      );
      await sql`insert into wikis (id, slug, name, coworld_name, created_at) values (${`wiki_${randomUUID()}`}, ${slug}, ${name}, ${name}, ${now})`.execute(
        db,
      );
    }
  },
};
