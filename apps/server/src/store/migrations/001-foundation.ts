import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Portable column types only (text, integer): the same migration serves SQLite and PostgreSQL.
export const foundation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("machines")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("machines_owner_name", ["owner_user_id", "name"])
      .execute();
    await db.schema
      .createTable("players")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("players_owner").on("players").column("owner_user_id").execute();
    await db.schema
      .createTable("tokens")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("machine_id", "text", (c) => c.references("machines.id"))
      .addColumn("player_id", "text", (c) => c.references("players.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text")
      .addColumn("last_used_at", "text")
      .addColumn("revoked_at", "text")
      .execute();
    await db.schema.createIndex("tokens_user").on("tokens").column("user_id").execute();
    await db.schema
      .createTable("auth_codes")
      .addColumn("code_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .execute();
    await db.schema
      .createTable("games")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull().unique())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("coworld_name", "text")
      .addColumn("coworld_id", "text")
      .addColumn("description", "text")
      .addColumn("notes", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("mods")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("description", "text")
      .addColumn("notes", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("mods_game_name", ["game_id", "name"])
      .execute();
    await db.schema
      .createTable("leagues")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("commissioner_key", "text", (c) => c.notNull())
      .addColumn("commissioner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
      .addColumn("mod_id", "text", (c) => c.references("mods.id"))
      .addColumn("description", "text")
      .addColumn("commissioner_config", "text", (c) => c.notNull())
      .addColumn("commissioner_migration_version", "text", (c) => c.notNull())
      .addColumn("rounds_paused_at", "text")
      .addColumn("settings", "text", (c) => c.notNull())
      .addColumn("filler_policy_version_ids", "text", (c) => c.notNull())
      .addColumn("rules", "text", (c) => c.notNull())
      .addColumn("public", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("hidden", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("is_game_of_week", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("disabled_at", "text")
      .addColumn("notes", "text")
      .addColumn("submissions_locked", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("game_version_locked", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("leagues_game").on("leagues").column("game_id").execute();
    await db.schema
      .createTable("divisions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("level", "integer", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("hidden", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("archived_at", "text")
      .addColumn("leaderboard_config", "text", (c) => c.notNull())
      .addColumn("round_schedule", "text", (c) => c.notNull())
      .addColumn("notes", "text")
      .addColumn("commissioner_description", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("divisions_league").on("divisions").column("league_id").execute();
    await db.schema
      .createTable("league_policy_memberships")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("division_id", "text", (c) => c.notNull().references("divisions.id"))
      .addColumn("policy_version_id", "text", (c) => c.notNull())
      .addColumn("player_id", "text")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("substatus", "text", (c) => c.notNull())
      .addColumn("is_champion", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("start_time", "text", (c) => c.notNull())
      .addColumn("end_time", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("memberships_division")
      .on("league_policy_memberships")
      .columns(["division_id", "status"])
      .execute();
    await db.schema
      .createTable("idempotency_keys")
      .addColumn("scope", "text", (c) => c.notNull())
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("request_hash", "text", (c) => c.notNull())
      .addColumn("status", "integer")
      .addColumn("response_body", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("idempotency_keys_pk", ["scope", "key"])
      .execute();
  },
};
