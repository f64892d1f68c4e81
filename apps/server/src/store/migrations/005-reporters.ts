import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Reporters: their keys (only a SHA-256 hash), the runs they open over a subject, and the
// outputs of those runs (bytes in the blob store, by content hash).
export const reporters: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("reporters")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("key_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("key_rotated_at", "text")
      .execute();
    await db.schema
      .createIndex("reporters_user")
      .on("reporters")
      .columns(["user_id", "created_at"])
      .execute();
    await db.schema
      .createTable("reporter_runs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("reporter_id", "text", (c) => c.notNull().references("reporters.id"))
      .addColumn("subject_type", "text", (c) => c.notNull())
      .addColumn("subject_id", "text")
      .addColumn("subject_text", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("reporter_runs_reporter")
      .on("reporter_runs")
      .columns(["reporter_id", "created_at"])
      .execute();
    await db.schema
      .createTable("reporter_outputs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("reporter_id", "text", (c) => c.notNull().references("reporters.id"))
      .addColumn("reporter_run_id", "text", (c) => c.notNull().references("reporter_runs.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("media_type", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("content_hash", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("reporter_outputs_run")
      .on("reporter_outputs")
      .columns(["reporter_run_id", "created_at"])
      .execute();
    await db.schema
      .createIndex("reporter_outputs_reporter")
      .on("reporter_outputs")
      .columns(["reporter_id", "created_at"])
      .execute();
  },
};
