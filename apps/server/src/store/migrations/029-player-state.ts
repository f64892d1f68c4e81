import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Stateful coworlds: each player's live state in a coworld name (`head`, across its versions and
// the player's policy versions), immutable snapshots of such states, and an episode's `state`
// request (JSON). Contents are sealed (base64 inside) and small (MAX_PLAYER_STATE_BYTES).
export const playerState: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("player_states")
      .addColumn("coworld_name", "text", (c) => c.notNull())
      .addColumn("player_id", "text", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.notNull())
      .addColumn("ciphertext", "text", (c) => c.notNull())
      // A digest of the content kept inline (not a blob's hash: nothing in the blob store).
      .addColumn("digest", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("player_states_pk", ["coworld_name", "player_id"])
      .execute();
    await db.schema
      .createTable("state_snapshots")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("coworld_name", "text", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.notNull())
      .addColumn("players", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("player_states_owner")
      .on("player_states")
      .column("owner_user_id")
      .execute();
    await db.schema
      .createIndex("state_snapshots_owner")
      .on("state_snapshots")
      .column("owner_user_id")
      .execute();
    await db.schema.alterTable("episode_requests").addColumn("state", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("episode_requests").dropColumn("state").execute();
    await db.schema.dropTable("state_snapshots").execute();
    await db.schema.dropTable("player_states").execute();
  },
};
