// Migration 011 on a store that already has solo play sessions (SQLite, or PostgreSQL when
// DATABASE_URL is set): each session keeps its row and its episode, and its one person's slot
// takes over the join and relay tokens, so a page and a runner already holding them still get in.
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

describe("migration 011-hosted-games", () => {
  it("moves each solo session's tokens to its person's slot and keeps the session", async () => {
    t = await createTestStore();
    const db = t.store.db;
    expect((await migrateTestStoreTo(t, "010-double-elimination")).error).toBeUndefined();
    const now = new Date().toISOString();
    await insertOwner(db, "ada@example.test", now);
    await insertGame(db, "game_1", "gridrush", now);
    await insertCoworld(
      db,
      { id: "cow_1", name: "gridrush", version: "0.1.0", gameId: "game_1" },
      now,
    );
    await sql`insert into episode_requests (id, requester_user_id, purpose, coworld_id, game_config, seed, status, scores, change_seq, created_at, updated_at)
      values ('ereq_1', 'user_1', 'play', 'cow_1', '{}', 7, 'running', '[]', 1, ${now}, ${now})`.execute(
      db,
    );
    await sql`insert into play_sessions (id, user_id, coworld_id, episode_request_id, human_position, join_token_hash, relay_token_hash, status, error, created_at, ended_at)
      values ('ps_1', 'user_1', 'cow_1', 'ereq_1', 0, 'join-hash', 'relay-hash', 'playing', null, ${now}, null)`.execute(
      db,
    );

    await t.store.migrate();

    const session = await db
      .selectFrom("play_sessions")
      .selectAll()
      .where("id", "=", "ps_1")
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      user_id: "user_1",
      episode_request_id: "ereq_1",
      kind: "solo",
      status: "playing",
      lobby_id: null,
      game_config: "{}",
    });
    const seats = await db.selectFrom("play_session_seats").selectAll().execute();
    expect(seats).toEqual([
      {
        play_session_id: "ps_1",
        position: 0,
        kind: "human",
        label: "you",
        user_id: "user_1",
        policy_version_id: null,
        player_id: null,
        join_token_hash: "join-hash",
        relay_token_hash: "relay-hash",
        joined_at: now,
        // Added by 015-live-play.
        connected_at: null,
      },
    ]);
    // A hosted session waits for its slots with no episode yet.
    await db
      .insertInto("play_sessions")
      .values({
        ...session,
        id: "ps_2",
        episode_request_id: null,
        kind: "hosted",
        status: "waiting",
      })
      .execute();
    expect(
      (
        await db
          .selectFrom("play_sessions")
          .select("id")
          .where("episode_request_id", "is", null)
          .execute()
      ).map((r) => r.id),
    ).toEqual(["ps_2"]);
  });
});
