import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A league's coworld commissioner runs its rounds (leagues/commissioner): a round names the
// commissioner that ran it, keeps the state it handed back for the next round and its capped log,
// and carries a lease so one replica runs its session; an episode keeps the commissioner's
// request id, tags and per-episode config overrides.
const ROUND_COLUMNS = [
  "commissioner_runnable_id",
  "commissioner_version",
  "commissioner_state",
  "commissioner_log",
  "idempotency_key",
  "lease_owner",
  "lease_expires_at",
] as const;

export const commissionerRounds: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite adds one at a time.
    for (const column of ROUND_COLUMNS)
      await db.schema.alterTable("rounds").addColumn(column, "text").execute();
    await db.schema
      .alterTable("episode_requests")
      .addColumn("commissioner_request_id", "text")
      .execute();
    await db.schema
      .alterTable("episode_requests")
      .addColumn("tags", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();
    await db.schema
      .alterTable("episode_requests")
      .addColumn("game_config_overrides", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const column of ["commissioner_request_id", "tags", "game_config_overrides"])
      await db.schema.alterTable("episode_requests").dropColumn(column).execute();
    for (const column of ROUND_COLUMNS)
      await db.schema.alterTable("rounds").dropColumn(column).execute();
  },
};
