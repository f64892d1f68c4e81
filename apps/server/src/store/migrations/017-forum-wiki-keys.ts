import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// What softmax-cli's forum and wiki client sends beyond Gauntlet's first shapes: a comment's
// idempotency key (a repeat answers the first comment), a wiki page's title, and a wiki edit's
// idempotency key (a repeat answers the edit made first instead of a conflict) and the player a
// revision's author acted as (its clients show authors as players).
export const forumWikiKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("post_comments").addColumn("idempotency_key", "text").execute();
    await db.schema
      .createIndex("post_comments_author_idempotency")
      .on("post_comments")
      .columns(["author_user_id", "idempotency_key"])
      .unique()
      .execute();
    await db.schema.alterTable("wiki_pages").addColumn("title", "text").execute();
    await db.schema.alterTable("wiki_revisions").addColumn("idempotency_key", "text").execute();
    await db.schema.alterTable("wiki_revisions").addColumn("author_player_id", "text").execute();
    await db.schema
      .createIndex("wiki_revisions_author_idempotency")
      .on("wiki_revisions")
      .columns(["author_user_id", "idempotency_key"])
      .unique()
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("wiki_revisions_author_idempotency").execute();
    await db.schema.alterTable("wiki_revisions").dropColumn("author_player_id").execute();
    await db.schema.alterTable("wiki_revisions").dropColumn("idempotency_key").execute();
    await db.schema.alterTable("wiki_pages").dropColumn("title").execute();
    await db.schema.dropIndex("post_comments_author_idempotency").execute();
    await db.schema.alterTable("post_comments").dropColumn("idempotency_key").execute();
  },
};
