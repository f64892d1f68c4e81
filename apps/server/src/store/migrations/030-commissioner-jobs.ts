import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A coworld's commissioner as runner work (leagues/commissioner/runner-jobs.ts): one row per
// session, queued by the replica whose driver opened it, leased by a runner, ended by its report
// with the commissioner's capped log. Only hashes of the lease's and the relay's secrets are kept.
export const commissionerJobs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("commissioner_jobs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull())
      .addColumn("coworld_id", "text", (c) => c.notNull())
      .addColumn("runnable_id", "text", (c) => c.notNull())
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("round_id", "text")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("relay_token_hash", "text", (c) => c.notNull())
      .addColumn("lease_token_hash", "text")
      .addColumn("lease_machine_id", "text")
      .addColumn("runner_id", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("lease_by", "text", (c) => c.notNull())
      .addColumn("leased_at", "text")
      .addColumn("ended_at", "text")
      .addColumn("outcome", "text")
      .addColumn("error", "text")
      .addColumn("log", "text")
      .execute();
    await db.schema
      .createIndex("commissioner_jobs_queued")
      .on("commissioner_jobs")
      .columns(["status", "created_at"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("commissioner_jobs").execute();
  },
};
