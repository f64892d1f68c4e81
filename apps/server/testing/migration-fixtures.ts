// Test support for one migration: a test store brought up to the migration before it, and the
// rows of a user, a game and a coworld as stores at that point held them (the owner is user_1).
import type { Kysely } from "kysely";
import { Migrator, type MigrationResultSet } from "kysely/migration";

import { migrationProvider } from "../src/store/migrations/index.ts";
import type { Database } from "../src/store/schema.ts";
import type { TestStore } from "./test-store.ts";

/** Runs the migrations up to and including `name`; the caller checks the result's error. */
export function migrateTestStoreTo(t: TestStore, name: string): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: t.store.db,
    provider: migrationProvider,
    ...(t.pgSchema ? { migrationTableSchema: t.pgSchema } : {}),
  });
  return migrator.migrateTo(name);
}

/** user_1, the owner of the games and coworlds below. */
export async function insertOwner(db: Kysely<Database>, email: string, now: string) {
  await db
    .insertInto("users")
    .values({ id: "user_1", email, password_hash: "x", is_admin: 0, created_at: now })
    .execute();
}

/** A game of user_1's named after its coworld, with no coworld linked yet. */
export async function insertGame(db: Kysely<Database>, id: string, name: string, now: string) {
  await db
    .insertInto("games")
    .values({
      id,
      name,
      owner_user_id: "user_1",
      coworld_name: name,
      coworld_id: null,
      description: null,
      notes: null,
      created_at: now,
    })
    .execute();
}

/** A version of user_1's coworld `name` in the game `gameId`, with a placeholder manifest. */
export async function insertCoworld(
  db: Kysely<Database>,
  row: { id: string; name: string; version: string; gameId: string },
  now: string,
) {
  await db
    .insertInto("coworlds")
    .values({
      id: row.id,
      name: row.name,
      version: row.version,
      owner_user_id: "user_1",
      game_id: row.gameId,
      manifest: "{}",
      manifest_hash: "h",
      bundle_sha256: null,
      size_bytes: 2,
      created_at: now,
    })
    .execute();
}
