// The store's introspection on PostgreSQL sees its own schema only: another schema's tables are
// not listed, and one dropped meanwhile cannot fail it (Kysely's own read every schema and failed
// a migration when a schema was dropped during it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestStore, type TestStore } from "../../testing/test-store.ts";

const postgres = process.env.GAUNTLET_TEST_SUITE === "postgres" && !!process.env.DATABASE_URL;
let mine: TestStore;
let other: TestStore;
beforeAll(async () => {
  if (!postgres) return;
  mine = await createTestStore();
  other = await createTestStore();
  await mine.store.migrate();
  await other.store.migrate();
});
afterAll(async () => {
  await mine?.cleanup();
  await other?.cleanup();
});

describe.runIf(postgres)("the store's introspection on PostgreSQL", () => {
  it("lists its own schema's tables and the migration tables only when asked", async () => {
    const tables = await mine.store.db.introspection.getTables();
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([mine.pgSchema]));
    expect(tables.map((t) => t.name)).toContain("leagues");
    expect(tables.map((t) => t.name)).not.toContain("kysely_migration");
    const leagues = tables.find((t) => t.name === "leagues");
    expect(leagues?.columns.map((c) => c.name)).toContain("id");
    const all = await mine.store.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(all.map((t) => t.name)).toContain("kysely_migration");
    expect(await mine.store.db.introspection.getSchemas()).toEqual([{ name: mine.pgSchema }]);
  });

  it("is not failed by another schema dropped while it reads", async () => {
    const reads = Array.from({ length: 20 }, () => mine.store.db.introspection.getTables());
    await other.cleanup();
    const done = await Promise.all(reads);
    expect(done.every((tables) => tables.some((t) => t.name === "leagues"))).toBe(true);
    await expect(mine.store.migrate()).resolves.toBeUndefined();
  });
});
