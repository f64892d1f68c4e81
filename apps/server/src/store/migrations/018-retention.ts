import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The retention policy (retention/): when an episode's stored files (replay, logs, artifacts)
// were removed, so that reads of them answer 410 instead of a bare 404, and an index that
// finds each division's newest round episodes without a scan.
export const retention: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("episode_requests")
      .addColumn("artifacts_expired_at", "text")
      .execute();
    await db.schema
      .createIndex("episode_requests_division_created")
      .on("episode_requests")
      .columns(["division_id", "created_at"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("episode_requests_division_created").execute();
    await db.schema.alterTable("episode_requests").dropColumn("artifacts_expired_at").execute();
  },
};
