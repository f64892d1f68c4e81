import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Bundle uploads of the hosted service's upload client: a signed address per upload (the bytes
// land in the blob store by their SHA-256), and the versions of a reporter's bundle, counted
// per owner and reporter name (the hosted service references `owner/name@version`).
export const bundleUploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("content_uploads")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("content_hash", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("signing_key", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("uploaded_at", "text")
      .addColumn("completed_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("content_uploads_owner_hash")
      .on("content_uploads")
      .columns(["user_id", "purpose", "content_hash"])
      .execute();
    await db.schema
      .createTable("reporter_versions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("content_hash", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("attributes", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("reporter_versions_number", ["user_id", "name", "version"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("reporter_versions").execute();
    await db.schema.dropTable("content_uploads").execute();
  },
};
