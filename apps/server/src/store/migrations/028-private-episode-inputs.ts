import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The name of the coworld secret holding an episode's private config overlay (an experience
// request's `game_config_overlay_secret`, a commissioner's `coworld_config_overlay_secret` tag).
// Only the name is kept: the document is read and resolved when a runner takes the job.
export const privateEpisodeInputs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("episode_requests")
      .addColumn("config_overlay_secret", "text")
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("episode_requests").dropColumn("config_overlay_secret").execute();
  },
};
