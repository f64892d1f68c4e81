import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// What coworld's upload client needs beyond Gauntlet's first shapes: a reporter's title and
// outputs contract (its registration is an upsert by name), and the league seed of a coworld
// name — the recipe its league was started from (one per name).
export const coworldUploadClient: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("reporters").addColumn("display_name", "text").execute();
    await db.schema.alterTable("reporters").addColumn("outputs", "text").execute();
    await db.schema
      .createIndex("reporters_user_name")
      .on("reporters")
      .columns(["user_id", "name"])
      .execute();
    await db.schema
      .createTable("coworld_league_seeds")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("coworld_name", "text", (c) => c.notNull().unique())
      .addColumn("template", "text", (c) => c.notNull())
      .addColumn("overrides", "text")
      .addColumn("created_by", "text", (c) => c.notNull().references("users.id"))
      .addColumn("league_id", "text", (c) => c.references("leagues.id"))
      .addColumn("notes", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("coworld_league_seeds").execute();
    await db.schema.dropIndex("reporters_user_name").execute();
    await db.schema.alterTable("reporters").dropColumn("outputs").execute();
    await db.schema.alterTable("reporters").dropColumn("display_name").execute();
  },
};
