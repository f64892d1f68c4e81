import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// League play: submissions, rounds with pools and results, ratings, precomputed standings and
// the event log. Portable column types only; booleans are 0/1 integers, JSON is text.
export const leaguePlay: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("league_submissions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("policy_version_id", "text", (c) => c.notNull().references("policy_versions.id"))
      .addColumn("player_id", "text", (c) => c.references("players.id"))
      .addColumn("submitted_by_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("notes", "text")
      .addColumn("auto_champion", "text", (c) => c.notNull())
      .addColumn("preferences", "text", (c) => c.notNull())
      .addColumn("membership_id", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("league_submissions_league")
      .on("league_submissions")
      .columns(["league_id", "created_at"])
      .execute();

    await db.schema
      .alterTable("league_policy_memberships")
      .addColumn("submission_id", "text")
      .execute();
    await db.schema
      .alterTable("league_policy_memberships")
      .addColumn("retired_reason", "text")
      .execute();
    await db.schema
      .createIndex("memberships_league_player")
      .on("league_policy_memberships")
      .columns(["league_id", "player_id"])
      .execute();

    await db.schema
      .createTable("rounds")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("league_id", "text", (c) => c.notNull().references("leagues.id"))
      .addColumn("division_id", "text", (c) => c.notNull().references("divisions.id"))
      .addColumn("round_number", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      // 1 while the round is pending or running, NULL once it has settled: with the unique index
      // below, the database itself allows one unsettled round per division, whatever the replicas do.
      .addColumn("active", "integer")
      .addColumn("commissioner_key", "text", (c) => c.notNull())
      .addColumn("execution_backend", "text", (c) => c.notNull())
      .addColumn("coworld_id", "text", (c) => c.notNull())
      .addColumn("round_config", "text", (c) => c.notNull())
      .addColumn("round_display", "text", (c) => c.notNull())
      .addColumn("episode_count", "integer", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("started_at", "text")
      .addColumn("completed_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("rounds_division_number", ["division_id", "round_number"])
      .execute();
    await db.schema
      .createIndex("rounds_one_active")
      .on("rounds")
      .columns(["division_id", "active"])
      .unique()
      .execute();
    await db.schema
      .createIndex("rounds_league")
      .on("rounds")
      .columns(["league_id", "created_at"])
      .execute();
    await db.schema.createIndex("rounds_status").on("rounds").column("status").execute();

    await db.schema
      .createTable("pools")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("round_id", "text", (c) => c.notNull().references("rounds.id"))
      .addColumn("division_id", "text", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("members", "text", (c) => c.notNull())
      .addColumn("episode_count", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("pools_round").on("pools").column("round_id").execute();

    await db.schema
      .createTable("round_results")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("round_id", "text", (c) => c.notNull().references("rounds.id"))
      .addColumn("division_id", "text", (c) => c.notNull())
      .addColumn("player_id", "text", (c) => c.notNull())
      .addColumn("policy_version_id", "text")
      .addColumn("rank", "integer", (c) => c.notNull())
      .addColumn("score", "double precision", (c) => c.notNull())
      .addColumn("result_metadata", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("round_results_round_player", ["round_id", "player_id"])
      .execute();

    // One rating per player per league; division_id is where the player plays now (it moves
    // with promotion and relegation, and the rating moves with it).
    await db.schema
      .createTable("ladder_ratings")
      .addColumn("league_id", "text", (c) => c.notNull())
      .addColumn("player_id", "text", (c) => c.notNull())
      .addColumn("division_id", "text", (c) => c.notNull())
      .addColumn("state", "text")
      .addColumn("rounds_played", "integer", (c) => c.notNull())
      .addColumn("recent_rounds", "text", (c) => c.notNull())
      .addColumn("active", "integer", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("ladder_ratings_pk", ["league_id", "player_id"])
      .execute();
    await db.schema
      .createIndex("ladder_ratings_division")
      .on("ladder_ratings")
      .columns(["division_id", "active"])
      .execute();

    // Standings as served: written when they change, read as they are.
    await db.schema
      .createTable("division_leaderboards")
      .addColumn("division_id", "text", (c) => c.primaryKey())
      // Counts up with every change: readers cache the parsed standings by it.
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("rows", "text", (c) => c.notNull())
      .addColumn("views", "text", (c) => c.notNull())
      .addColumn("round_id", "text")
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    // The feed and the live-event log: seq is gapless and global (a counter taken in the writing
    // transaction), so WebSocket clients resume from it.
    await db.schema
      .createTable("competition_events")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("seq", "integer", (c) => c.notNull().unique())
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("audience", "text", (c) => c.notNull())
      .addColumn("user_id", "text")
      .addColumn("league_id", "text")
      .addColumn("division_id", "text")
      .addColumn("round_id", "text")
      .addColumn("episode_request_id", "text")
      .addColumn("player_id", "text")
      .addColumn("policy_version_id", "text")
      .addColumn("refs", "text", (c) => c.notNull())
      .addColumn("headline", "text", (c) => c.notNull())
      .addColumn("summary", "text", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("competition_events_league")
      .on("competition_events")
      .columns(["league_id", "seq"])
      .execute();
    await db.schema
      .createIndex("competition_events_division")
      .on("competition_events")
      .columns(["division_id", "seq"])
      .execute();
    await db.schema
      .createIndex("competition_events_round")
      .on("competition_events")
      .column("round_id")
      .execute();
    await db.schema
      .createIndex("competition_events_user")
      .on("competition_events")
      .columns(["user_id", "seq"])
      .execute();
  },
};
