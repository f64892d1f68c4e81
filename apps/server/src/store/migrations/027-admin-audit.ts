import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The audit trail of elevated admin actions (audit/audit-trail.ts): who changed what, when, with
// which answer. No request body is kept: bodies carry secrets and passwords.
export const adminAudit: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("admin_audit")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("at", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.notNull())
      .addColumn("token_id", "text", (c) => c.notNull())
      .addColumn("operation_id", "text", (c) => c.notNull())
      .addColumn("method", "text", (c) => c.notNull())
      .addColumn("path", "text", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("admin_audit_at").on("admin_audit").columns(["at", "id"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("admin_audit").execute();
  },
};
