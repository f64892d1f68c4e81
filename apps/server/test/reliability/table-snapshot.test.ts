import { afterEach, describe, expect, it } from "vitest";

import { createTestStore, type TestStore } from "../../testing/test-store.ts";
import { changedTables, openTableSnapshots, type TableSnapshots } from "./table-snapshot.ts";

describe("table snapshots (the fuzz's and the matrix's 'a refusal changed nothing')", () => {
  let testStore: TestStore | undefined;
  let snapshots: TableSnapshots | undefined;
  afterEach(async () => {
    await snapshots?.close();
    await testStore?.cleanup();
  });

  it("names the table a write changed, and not a token's last use", async () => {
    testStore = await createTestStore();
    await testStore.store.migrate();
    const { db } = testStore.store;
    snapshots = await openTableSnapshots(testStore);
    const empty = await snapshots.take();
    expect(empty.get("counters")).toMatch(/^0:/);
    expect(empty.has("admin_audit")).toBe(false);

    await db.insertInto("counters").values({ name: "snapshot-test", value: 1 }).execute();
    const inserted = await snapshots.take();
    expect(changedTables(empty, inserted)).toEqual(["counters"]);

    await db
      .updateTable("counters")
      .set({ value: 2 })
      .where("name", "=", "snapshot-test")
      .execute();
    const updated = await snapshots.take();
    expect(changedTables(inserted, updated)).toEqual(["counters"]);
    // The same rows again: the same fingerprint.
    expect(changedTables(updated, await snapshots.take())).toEqual([]);

    await db
      .insertInto("users")
      .values({
        id: "user_snapshot",
        email: "snap@example.test",
        password_hash: "x",
        is_admin: 0,
        created_at: "2026-01-01T00:00:00.000Z",
      })
      .execute();
    const withUser = await snapshots.take();
    await db
      .insertInto("tokens")
      .values({
        id: "tok_snapshot",
        token_hash: "h",
        kind: "user",
        purpose: "api",
        name: "t",
        user_id: "user_snapshot",
        machine_id: null,
        player_id: null,
        created_at: "2026-01-01T00:00:00.000Z",
        expires_at: null,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    const withToken = await snapshots.take();
    expect(changedTables(withUser, withToken)).toEqual(["tokens"]);
    await db.updateTable("tokens").set({ last_used_at: "2026-01-02T00:00:00.000Z" }).execute();
    expect(changedTables(withToken, await snapshots.take())).toEqual([]);
  });
});
