// A round failing while a runner leases one of its jobs (CI's failure on PostgreSQL: the lease
// answered 500). The lease holds its job's row and then takes the episodes' change counter; a
// failure that took the counter for its first episode and then waited for that job deadlocked
// with it, and PostgreSQL aborted one of the two. And while a runner completes one (an attack's
// finding): the cancel waited for the job, then overwrote the completed episode with "cancelled".
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { trigger } from "../../../testing/rounds.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../../testing/test-league.ts";
import { EPISODE_CHANGES } from "../../episodes/episodes.ts";
import { nowIso } from "../../shared/clock.ts";
import { nextValue } from "../../shared/counters.ts";
import { failRound } from "./round-fail.ts";

const postgres = process.env.GAUNTLET_TEST_SUITE === "postgres" && !!process.env.DATABASE_URL;
let t: TestServer;
beforeAll(async () => {
  if (postgres) t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
});

/** A round of three players' episodes, not leased; `open` in id order. */
async function roundWithEpisodes() {
  const tl = await createTestLeague(t);
  for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
  const roundId = (await trigger(t, tl)).rounds[0]?.id ?? "";
  const db = t.server.store.db;
  const open = await db
    .selectFrom("episode_requests")
    .select("id")
    .where("round_id", "=", roundId)
    .orderBy("id")
    .execute();
  return { db, roundId, open };
}

/** Until the failure (another connection) waits for a job's row this test holds. */
function untilWaitingForAJob(): Promise<true> {
  return eventually("the failure to wait for a job's row", async () => {
    const waiting = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where wait_event_type = 'Lock' and datname = current_database()
        and query ilike 'update "jobs"%'`.execute(t.server.store.db);
    return (waiting.rows[0]?.n ?? 0) > 0;
  });
}

describe.runIf(postgres)("a round that fails while a runner leases one of its jobs", () => {
  it("fails the round and lets the lease finish: neither is aborted", async () => {
    const { db, roundId, open } = await roundWithEpisodes();
    expect(open.length).toBeGreaterThanOrEqual(2);
    // The last episode's job, the one a cancel that goes episode by episode reaches last.
    const leasedEpisode = open.at(-1)?.id ?? "";

    let locked = (): void => undefined;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    // The lease's steps (work-queue.ts claimJob): the job's row, then the change counter.
    const lease = db.transaction().execute(async (trx) => {
      await trx
        .updateTable("jobs")
        .set({ updated_at: nowIso() })
        .where("episode_request_id", "=", leasedEpisode)
        .execute();
      locked();
      await untilWaitingForAJob();
      return nextValue(trx, EPISODE_CHANGES);
    });
    await holding;
    const failing = failRound(db, { publish: () => undefined }, roundId, "the test failed it", "");

    await expect(lease).resolves.toBeGreaterThan(0);
    await expect(failing).resolves.toBe(true);
    const statuses = await db
      .selectFrom("episode_requests")
      .select("status")
      .where("round_id", "=", roundId)
      .execute();
    expect(statuses.map((s) => s.status)).toEqual(open.map(() => "cancelled"));
  });

  it("keeps the episode a runner completed while the failure waited for its job", async () => {
    const { db, roundId, open } = await roundWithEpisodes();
    const done = open.at(-1)?.id ?? "";
    let locked = (): void => undefined;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    // A runner's completion in its own order (job-completion.ts): the job, then the episode.
    const completion = db.transaction().execute(async (trx) => {
      await trx
        .updateTable("jobs")
        .set({ status: "completed", updated_at: nowIso() })
        .where("episode_request_id", "=", done)
        .execute();
      await trx
        .updateTable("episode_requests")
        .set({
          status: "completed",
          change_seq: await nextValue(trx, EPISODE_CHANGES),
          updated_at: nowIso(),
        })
        .where("id", "=", done)
        .execute();
      locked();
      await untilWaitingForAJob();
    });
    await holding;
    const failing = failRound(db, { publish: () => undefined }, roundId, "the test failed it", "");
    await completion;
    await expect(failing).resolves.toBe(true);
    const statuses = await db
      .selectFrom("episode_requests as e")
      .innerJoin("jobs as j", "j.episode_request_id", "e.id")
      .select(["e.id", "e.status as episode", "j.status as job"])
      .where("e.round_id", "=", roundId)
      .execute();
    for (const row of statuses)
      expect([row.episode, row.job]).toEqual(
        row.id === done ? ["completed", "completed"] : ["cancelled", "cancelled"],
      );
  });
});
