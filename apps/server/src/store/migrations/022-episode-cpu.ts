import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// What an episode's runnables used of the CPU and how loaded its runner was (EpisodeCpu, JSON),
// as the runner reported it with the episode's last completion or failure: a seat's owner sees
// whether it lost to its own code or to a busy runner. Null before, or from a runner that did
// not measure.
export const episodeCpu: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("episode_requests").addColumn("cpu", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("episode_requests").dropColumn("cpu").execute();
  },
};
