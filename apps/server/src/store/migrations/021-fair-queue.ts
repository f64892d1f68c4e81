import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The fair queue (episodes/fair-order.ts): each job names the class of work it is leased under
// and the user who asked for it, so that a lease counts running jobs and finds each class's and
// requester's oldest queued jobs from one index, without joining the episodes. Jobs queued before
// take both from their episode: a round's job is the league's, a play session's is play, a
// certification's is certification, a lobby's game is play, and the rest are evaluations.
export const fairQueue: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("jobs")
      .addColumn("share_class", "text", (c) => c.notNull().defaultTo("evaluation"))
      .execute();
    await db.schema
      .alterTable("jobs")
      .addColumn("share_owner", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await sql`
      update jobs set
        share_owner = coalesce(
          (select e.requester_user_id from episode_requests e where e.id = jobs.episode_request_id),
          ''
        ),
        share_class = coalesce(
          (select case
             when e.purpose = 'round' then 'league'
             when e.purpose = 'play' then 'play'
             when e.purpose = 'certification' then 'certification'
             when exists (
               select 1 from lobbies l where l.experience_request_id = e.experience_request_id
             ) then 'play'
             else 'evaluation'
           end
           from episode_requests e where e.id = jobs.episode_request_id),
          'evaluation'
        )
    `.execute(db);
    await db.schema
      .createIndex("jobs_share_queue")
      .on("jobs")
      .columns(["status", "share_class", "share_owner", "created_at"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("jobs_share_queue").execute();
    await db.schema.alterTable("jobs").dropColumn("share_owner").execute();
    await db.schema.alterTable("jobs").dropColumn("share_class").execute();
  },
};
