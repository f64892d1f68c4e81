import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Live play that waits for its people: when a job's current lease began (the join timeout runs
// from it), when each person's browser first connected to their seat, and why a session failed
// as a code (`player_never_connected`) beside its message.
export const livePlay: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("jobs").addColumn("leased_at", "text").execute();
    await db.schema.alterTable("play_session_seats").addColumn("connected_at", "text").execute();
    await db.schema.alterTable("play_sessions").addColumn("error_type", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("play_sessions").dropColumn("error_type").execute();
    await db.schema.alterTable("play_session_seats").dropColumn("connected_at").execute();
    await db.schema.alterTable("jobs").dropColumn("leased_at").execute();
  },
};
