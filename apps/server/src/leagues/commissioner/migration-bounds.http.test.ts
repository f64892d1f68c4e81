// A coworld commissioner's migration declares its league's divisions: it may not declare more
// than a league may have (100, as a league's create), nor names and descriptions past a
// division's own bounds; such a declaration is refused whole and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { createTestLeague } from "../../../testing/test-league.ts";
import { memoryChannel } from "./memory-channel.ts";
import { migrateLeague } from "./migration.ts";
import { CommissionerSession } from "./session.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
}, 30_000);
afterAll(async () => {
  await t?.close();
});

function declaring(divisions: Record<string, unknown>[]) {
  return new CommissionerSession(
    memoryChannel({
      onMessage(message, reply) {
        if (message.type === "league_migration_config_request")
          reply({ type: "league_migration_config_response", divisions });
        else if (message.type === "league_migration_request")
          reply({ type: "league_migration_response", policy_membership_events: [] });
      },
    }),
  );
}

describe("a commissioner's migration past a league's bounds", () => {
  it.each([
    [
      "5,000 divisions",
      Array.from({ length: 5_000 }, (_, i) => ({ name: `D${i}`, level: i, type: "competition" })),
    ],
    ["a name of 100,000 characters", [{ name: "n".repeat(100_000), level: 1 }]],
    [
      "a description of a megabyte",
      [{ name: "Premier", level: 1, description: "d".repeat(1024 * 1024) }],
    ],
  ])("refuses %s and writes nothing", async (_what, divisions) => {
    const db = t.testStore.store.db;
    const tl = await createTestLeague(t);
    const league = await db
      .selectFrom("leagues")
      .selectAll()
      .where("id", "=", tl.league.id)
      .executeTakeFirstOrThrow();
    await expect(migrateLeague(db, declaring(divisions), league, "2", 5_000)).rejects.toThrow(
      /divisions|name|description/,
    );
    const rows = await db
      .selectFrom("divisions")
      .select(["name", "description"])
      .where("league_id", "=", league.id)
      .execute();
    expect(rows).toEqual([{ name: "Premier", description: null }]);
  });
});
