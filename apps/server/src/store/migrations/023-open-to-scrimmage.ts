import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A version plays outside the leagues and tournaments it was entered in only when its owner
// says so (access/versions.ts): off for every existing version.
export const openToScrimmage: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("policy_versions")
      .addColumn("open_to_scrimmage", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("policy_versions").dropColumn("open_to_scrimmage").execute();
  },
};
