import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The hosted service's cogames client: its policy uploads (a zip PUT to a signed address, then
// completed into a policy bundle and version) and its assay runs (a policy version evaluated on
// missions, each mission an experience request).
export const cogamesStats: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("policy_submit_uploads")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("s3_key", "text", (c) => c.notNull())
      .addColumn("signing_key", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("sha256", "text")
      .addColumn("size_bytes", "integer")
      .addColumn("policy_version_id", "text", (c) => c.references("policy_versions.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("assay_runs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("policy_version_id", "text", (c) => c.notNull().references("policy_versions.id"))
      .addColumn("name", "text")
      .addColumn("compat_version", "text")
      .addColumn("missions", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("completed_at", "text")
      .execute();
    await db.schema
      .createIndex("assay_runs_owner")
      .on("assay_runs")
      .columns(["user_id", "policy_version_id"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("assay_runs").execute();
    await db.schema.dropTable("policy_submit_uploads").execute();
  },
};
