// Migration 006 on a store that already has coworlds (SQLite, or PostgreSQL when DATABASE_URL
// is set): the general forum appears, and every coworld name uploaded before gets a forum and
// a wiki under one slug, a name that slugifies to a taken slug getting a suffix.
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

describe("migration 006-forums-wikis", () => {
  it("opens the general forum and a forum and wiki for each coworld name already uploaded", async () => {
    t = await createTestStore();
    const db = t.store.db;
    const before = await migrateTestStoreTo(t, "004-evaluations");
    expect(before.error).toBeUndefined();
    const now = new Date().toISOString();
    await insertOwner(db, "a@example.test", now);
    for (const [i, name] of ["Grid Rush", "General", "grid-rush"].entries()) {
      await insertGame(db, `game_${i}`, name, now);
      for (const version of ["1.0.0", "1.1.0"])
        await insertCoworld(
          db,
          { id: `cow_${i}_${version}`, name, version, gameId: `game_${i}` },
          now,
        );
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
