// Migration 021 on a store with jobs already queued (SQLite, or PostgreSQL when DATABASE_URL is
// set): each job takes its class of work and its requester from its episode, so the fair order
// shares out what was queued before the upgrade too.
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";

import {
  insertCoworld,
  insertGame,
  insertOwner,
  migrateTestStoreTo,
} from "../../../testing/migration-fixtures.ts";
import { createTestStore, type TestStore } from "../../../testing/test-store.ts";

let t: TestStore | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe("migration 021-fair-queue", () => {
  it("gives each queued job its episode's class of work and requester", async () => {
    t = await createTestStore();
    const db = t.store.db;
    expect((await migrateTestStoreTo(t, "020-coworld-upload-client")).error).toBeUndefined();
    const now = new Date().toISOString();
    await insertOwner(db, "ada@example.test", now);
    await insertGame(db, "game_1", "gridrush", now);
    await insertCoworld(
      db,
      { id: "cow_1", name: "gridrush", version: "0.1.0", gameId: "game_1" },
      now,
    );
    const purposes = {
      round: "u_league",
      play: "u_play",
      certification: "u_admin",
      experience: "u_ann",
    };
    for (const user of Object.values(purposes))
      await sql`insert into users (id, email, password_hash, is_admin, created_at)
        values (${user}, ${`${user}@example.test`}, 'x', 0, ${now})`.execute(db);
    for (const [purpose, user] of Object.entries(purposes)) {
      await sql`insert into episode_requests (id, requester_user_id, purpose, coworld_id, game_config, seed, status, scores, change_seq, created_at, updated_at)
        values (${`ereq_${purpose}`}, ${user}, ${purpose}, 'cow_1', '{}', 7, 'submitted', '[]', 1, ${now}, ${now})`.execute(
        db,
      );
      await sql`insert into jobs (id, episode_request_id, status, runtime, attempts, max_attempts, deadline_ms, created_at, updated_at)
        values (${`job_${purpose}`}, ${`ereq_${purpose}`}, 'queued', 'process', 0, 3, 120000, ${now}, ${now})`.execute(
        db,
      );
    }

    await t.store.migrate();

    const jobs = await db
      .selectFrom("jobs")
      .select(["id", "share_class", "share_owner"])
      .orderBy("id")
      .execute();
    expect(jobs).toEqual([
      { id: "job_certification", share_class: "certification", share_owner: "u_admin" },
      { id: "job_experience", share_class: "evaluation", share_owner: "u_ann" },
      { id: "job_play", share_class: "play", share_owner: "u_play" },
      { id: "job_round", share_class: "league", share_owner: "u_league" },
    ]);
  });
});
