import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The rating ledger's voids: an episode a commissioner or admin struck from the record, with the
// reason. A separate table, so the episode itself stays as it was played (its scores, its
// failure) and a void is an act with an author and a time of its own.
export const episodeVoids: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("episode_voids")
      .addColumn("episode_request_id", "text", (c) =>
        c.primaryKey().references("episode_requests.id").onDelete("cascade"),
      )
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("voided_by_user_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("episode_voids").execute();
  },
};
