import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The campaign board of a league: its geometry, one row per cell with the owner, and the
// history of captures that settled rounds write (one entry per round, so a round moves
// territory once however many readers catch the board up at the same moment).
export const tournamentsCampaign: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("campaign_boards")
      .addColumn("league_id", "text", (c) => c.primaryKey().references("leagues.id"))
      .addColumn("width", "integer", (c) => c.notNull())
      .addColumn("height", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("campaign_cells")
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("x", "integer", (c) => c.notNull())
      .addColumn("y", "integer", (c) => c.notNull())
      .addColumn("owner_player_id", "text")
      .addColumn("captured_round_id", "text")
      .addColumn("captured_at", "text")
      .addPrimaryKeyConstraint("campaign_cells_pk", ["league_id", "x", "y"])
      .execute();
    await db.schema
      .createTable("campaign_history")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("round_id", "text", (c) => c.notNull())
      .addColumn("player_id", "text", (c) => c.notNull())
      .addColumn("x", "integer")
      .addColumn("y", "integer")
      .addColumn("previous_owner_player_id", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("campaign_history_round")
      .unique()
      .on("campaign_history")
      .columns(["league_id", "round_id"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("campaign_history").execute();
    await db.schema.dropTable("campaign_cells").execute();
    await db.schema.dropTable("campaign_boards").execute();
  },
};
