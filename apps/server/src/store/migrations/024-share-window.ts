import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The fair order counts each class's jobs leased within the share window (episodes/fair-lease.ts):
// an index on when a job was leased keeps that read from walking every job ever run.
export const shareWindow: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex("jobs_leased_at").on("jobs").columns(["leased_at"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("jobs_leased_at").execute();
  },
};
