import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Lobbies and play: play modules (static browser bundles per coworld version, each file a blob),
// lobbies with their seats (a started lobby points at the experience request that plays it),
// hosted play sessions, and the episode seat a person plays (its sealed relay address).
export const lobbiesPlay: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("play_modules")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("coworld_id", "text", (c) => c.notNull().references("coworlds.id"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("entry", "text", (c) => c.notNull())
      .addColumn("sha256", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("uploader_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("play_modules_coworld_kind", ["coworld_id", "kind"])
      .execute();
    await db.schema
      .createTable("play_module_files")
      .addColumn("play_module_id", "text", (c) =>
        c.notNull().references("play_modules.id").onDelete("cascade"),
      )
      .addColumn("path", "text", (c) => c.notNull())
      .addColumn("sha256", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("play_module_files_pk", ["play_module_id", "path"])
      .execute();

    await db.schema
      .createTable("lobbies")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("creator_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("variant_id", "text")
      .addColumn("game_config_overrides", "text", (c) => c.notNull())
      .addColumn("num_players", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("experience_request_id", "text", (c) => c.references("experience_requests.id"))
      .addColumn("episode_request_id", "text")
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("started_at", "text")
      .addColumn("ended_at", "text")
      .execute();
    await db.schema
      .createIndex("lobbies_league")
      .on("lobbies")
      .columns(["league_id", "created_at"])
      .execute();
    await db.schema
      .createTable("lobby_seats")
      .addColumn("lobby_id", "text", (c) =>
        c.notNull().references("lobbies.id").onDelete("cascade"),
      )
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.references("users.id"))
      .addColumn("player_id", "text")
      .addColumn("policy_version_id", "text")
      .addColumn("claimed_at", "text")
      .addPrimaryKeyConstraint("lobby_seats_pk", ["lobby_id", "position"])
      .execute();

    await db.schema
      .createTable("play_sessions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("coworld_id", "text", (c) => c.notNull().references("coworlds.id"))
      .addColumn("episode_request_id", "text", (c) => c.notNull().references("episode_requests.id"))
      .addColumn("human_position", "integer", (c) => c.notNull())
      .addColumn("join_token_hash", "text", (c) => c.notNull())
      .addColumn("relay_token_hash", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("ended_at", "text")
      .execute();
    await db.schema.alterTable("episode_participants").addColumn("human_relay", "text").execute();
  },
};
