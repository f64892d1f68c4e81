import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Tournaments: the cup, its entrants by seed, and its bracket's matches. `wave` counts the waves
// started; advancing compares and sets it, so two replicas never start the same wave twice.
export const tournaments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("tournaments")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("format", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("episodes_per_match", "integer", (c) => c.notNull())
      .addColumn("variant_id", "text")
      .addColumn("game_config_overrides", "text")
      .addColumn("seeding", "text", (c) => c.notNull())
      .addColumn("wave", "integer", (c) => c.notNull())
      .addColumn("winner_seed", "integer")
      .addColumn("error", "text")
      .addColumn("created_by_user_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addColumn("started_at", "text")
      .addColumn("completed_at", "text")
      .execute();
    await db.schema
      .createIndex("tournaments_league")
      .on("tournaments")
      .columns(["league_id", "created_at"])
      .execute();
    await db.schema
      .createTable("tournament_entrants")
      .addColumn("tournament_id", "text", (c) => c.notNull().references("tournaments.id"))
      .addColumn("seed", "integer", (c) => c.notNull())
      .addColumn("policy_version_id", "text", (c) => c.notNull())
      .addColumn("player_id", "text")
      .addColumn("display_name", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("tournament_entrants_pk", ["tournament_id", "seed"])
      .execute();
    await db.schema
      .createTable("tournament_matches")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("tournament_id", "text", (c) => c.notNull().references("tournaments.id"))
      .addColumn("round", "integer", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("seed_a", "integer")
      .addColumn("seed_b", "integer")
      .addColumn("winner_seed", "integer")
      .addColumn("decided_by", "text")
      .addColumn("score_a", "double precision")
      .addColumn("score_b", "double precision")
      .addColumn("episodes_completed", "integer", (c) => c.notNull())
      .addColumn("experience_request_id", "text")
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("tournament_matches_slot")
      .unique()
      .on("tournament_matches")
      .columns(["tournament_id", "round", "position"])
      .execute();
    await db.schema
      .createIndex("tournament_matches_wave")
      .on("tournament_matches")
      .column("experience_request_id")
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("tournament_matches").execute();
    await db.schema.dropTable("tournament_entrants").execute();
    await db.schema.dropTable("tournaments").execute();
  },
};
