import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Evaluations: experience requests (their episodes are episode_requests rows pointing back),
// bulk episode uploads, and the event log learns which experience request an event belongs to (its live topic).
export const evaluations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("experience_requests")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("requester_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("coworld_id", "text", (c) => c.notNull().references("coworlds.id"))
      .addColumn("variant_id", "text")
      .addColumn("league_id", "text", (c) => c.references("leagues.id"))
      .addColumn("division_id", "text", (c) => c.references("divisions.id"))
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("episode_count", "integer", (c) => c.notNull())
      .addColumn("request", "text", (c) => c.notNull())
      .addColumn("notes", "text")
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("started_at", "text")
      .addColumn("completed_at", "text")
      .execute();
    await db.schema
      .createIndex("experience_requests_requester")
      .on("experience_requests")
      .columns(["requester_user_id", "created_at"])
      .execute();
    await db.schema
      .createIndex("episode_requests_experience")
      .on("episode_requests")
      .columns(["experience_request_id"])
      .execute();
    await db.schema
      .alterTable("competition_events")
      .addColumn("experience_request_id", "text")
      .execute();

    // Bulk episode uploads: a signed address to put a DuckDB file to, then one completion.
    await db.schema
      .createTable("bulk_uploads")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("s3_key", "text", (c) => c.notNull())
      .addColumn("signing_key", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("sha256", "text")
      .addColumn("size_bytes", "integer")
      .addColumn("episodes_created", "integer")
      .addColumn("duckdb_uri", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("completed_at", "text")
      .execute();
    await db.schema.alterTable("episode_requests").addColumn("bulk_upload_id", "text").execute();
  },
};
