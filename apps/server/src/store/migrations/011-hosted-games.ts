import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Hosted games: a play session has slots (`play_session_seats`) that people and programs join,
// and its episode starts when the last one is joined, so `episode_request_id` becomes nullable
// (the table is rebuilt: SQLite cannot drop a NOT NULL). Each slot keeps its own join and relay
// tokens (hashes); a solo session's one slot takes over the tokens the session row had. A lobby
// launched for live play points at its session. There is no way down: the tokens moved.
const COPIED = "id, user_id, coworld_id, episode_request_id, status, error, created_at, ended_at";

export const hostedGames: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("play_sessions_next")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("coworld_id", "text", (c) => c.notNull().references("coworlds.id"))
      .addColumn("episode_request_id", "text", (c) => c.references("episode_requests.id"))
      .addColumn("kind", "text", (c) => c.notNull().defaultTo("solo"))
      .addColumn("variant_id", "text")
      .addColumn("game_config", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("allow_spectators", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("lobby_id", "text", (c) => c.references("lobbies.id"))
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("ended_at", "text")
      .execute();
    await sql`insert into play_sessions_next (${sql.raw(COPIED)}) select ${sql.raw(COPIED)} from play_sessions`.execute(
      db,
    );
    await db.schema
      .createTable("play_session_seats")
      .addColumn("play_session_id", "text", (c) =>
        c.notNull().references("play_sessions_next.id").onDelete("cascade"),
      )
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.references("users.id"))
      .addColumn("policy_version_id", "text", (c) => c.references("policy_versions.id"))
      .addColumn("player_id", "text")
      .addColumn("join_token_hash", "text")
      .addColumn("relay_token_hash", "text")
      .addColumn("joined_at", "text")
      .addPrimaryKeyConstraint("play_session_seats_pk", ["play_session_id", "position"])
      .execute();
    await sql`insert into play_session_seats (play_session_id, position, kind, label, user_id, join_token_hash, relay_token_hash, joined_at)
      select id, human_position, 'human', 'you', user_id, join_token_hash, relay_token_hash, created_at from play_sessions`.execute(
      db,
    );
    await db.schema.dropTable("play_sessions").execute();
    await db.schema.alterTable("play_sessions_next").renameTo("play_sessions").execute();
    await db.schema
      .createIndex("play_sessions_user")
      .on("play_sessions")
      .columns(["user_id", "created_at"])
      .execute();
    await db.schema.alterTable("lobbies").addColumn("play_session_id", "text").execute();
  },
};
