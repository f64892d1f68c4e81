// Migration 006 on a store that already has coworlds (SQLite, or PostgreSQL when DATABASE_URL
// is set): the general forum appears, and every coworld name uploaded before gets a forum and
// a wiki under one slug, a name that slugifies to a taken slug getting a suffix.
import { Migrator } from "kysely/migration";
import { afterEach, describe, expect, it } from "vitest";

import { createTestStore, type TestStore } from "../../../testing/test-store.ts";
import { migrationProvider } from "./index.ts";

let t: TestStore | undefined;

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe("migration 006-forums-wikis", () => {
  it("opens the general forum and a forum and wiki for each coworld name already uploaded", async () => {
    t = await createTestStore();
    const db = t.store.db;
    const migrator = new Migrator({
      db,
      provider: migrationProvider,
      ...(t.pgSchema ? { migrationTableSchema: t.pgSchema } : {}),
    });
    const before = await migrator.migrateTo("004-evaluations");
    expect(before.error).toBeUndefined();
    const now = new Date().toISOString();
    await db
      .insertInto("users")
      .values({
        id: "user_1",
        email: "a@example.test",
        password_hash: "x",
        is_admin: 0,
        created_at: now,
      })
      .execute();
    for (const [i, name] of ["Grid Rush", "General", "grid-rush"].entries()) {
      await db
        .insertInto("games")
        .values({
          id: `game_${i}`,
          name,
          owner_user_id: "user_1",
          coworld_name: name,
          coworld_id: null,
          description: null,
          notes: null,
          created_at: now,
        })
        .execute();
      for (const version of ["1.0.0", "1.1.0"]) {
        await db
          .insertInto("coworlds")
          .values({
            id: `cow_${i}_${version}`,
            name,
            version,
            owner_user_id: "user_1",
            game_id: `game_${i}`,
            manifest: "{}",
            manifest_hash: "h",
            bundle_sha256: null,
            size_bytes: 2,
            created_at: now,
          })
          .execute();
      }
    }
    await t.store.migrate();

    const forums = await db
      .selectFrom("forums")
      .select(["slug", "name", "kind", "coworld_name"])
      .orderBy("slug")
      .execute();
    expect(forums).toEqual([
      { slug: "general", name: "General", kind: "general", coworld_name: null },
      { slug: "general-2", name: "General", kind: "coworld", coworld_name: "General" },
      { slug: "grid-rush", name: "Grid Rush", kind: "coworld", coworld_name: "Grid Rush" },
      { slug: "grid-rush-2", name: "grid-rush", kind: "coworld", coworld_name: "grid-rush" },
    ]);
    const wikis = await db
      .selectFrom("wikis")
      .select(["slug", "coworld_name"])
      .orderBy("slug")
      .execute();
    expect(wikis).toEqual(
      forums
        .filter((f) => f.kind === "coworld")
        .map((f) => ({ slug: f.slug, coworld_name: f.coworld_name })),
    );
  });
});
