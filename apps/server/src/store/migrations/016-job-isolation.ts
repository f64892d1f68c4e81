import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Where the runner that leased a job runs its code (sandbox, docker, or process for trusted code
// only), as the runner said when it leased it: shown on the episode, so that a coworld's owner
// sees that its certification ran sandboxed. Null for jobs leased before, or by a runner that
// did not say.
export const jobIsolation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("jobs").addColumn("isolation", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("jobs").dropColumn("isolation").execute();
  },
};
