import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Double elimination: a match belongs to the winners bracket, the losers bracket or the grand
// final, so a match's slot is (bracket, round, position). The other formats have one bracket,
// `main`.
export const doubleElimination: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("tournament_matches")
      .addColumn("bracket", "text", (c) => c.notNull().defaultTo("main"))
      .execute();
    await db.schema.dropIndex("tournament_matches_slot").execute();
    await db.schema
      .createIndex("tournament_matches_slot")
      .unique()
      .on("tournament_matches")
      .columns(["tournament_id", "bracket", "round", "position"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("tournament_matches_slot").execute();
    await db.schema
      .createIndex("tournament_matches_slot")
      .unique()
      .on("tournament_matches")
      .columns(["tournament_id", "round", "position"])
      .execute();
    await db.schema.alterTable("tournament_matches").dropColumn("bracket").execute();
  },
};
