// Which replica runs a round's commissioner session: the one holding the lease on the round row,
// taken with a conditional update and renewed while the session lives. A running round whose
// lease lapsed lost its session (its replica stopped): it fails, and the league tries again.
import type { Kysely } from "kysely";

import type { Database, RoundsTable } from "../../store/schema.ts";

const at = (ms: number) => new Date(ms).toISOString();

/** Takes a pending round for `owner`; the round (now running) or null when another has it. */
export async function claimRound(
  db: Kysely<Database>,
  roundId: string,
  owner: string,
  leaseMs: number,
): Promise<RoundsTable | null> {
  const now = Date.now();
  const claimed = await db
    .updateTable("rounds")
    .set({
      status: "running",
      started_at: at(now),
      lease_owner: owner,
      lease_expires_at: at(now + leaseMs),
    })
    .where("id", "=", roundId)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("lease_owner", "is", null), eb("lease_expires_at", "<", at(now))]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  return (
    (await db.selectFrom("rounds").selectAll().where("id", "=", roundId).executeTakeFirst()) ?? null
  );
}

/** Extends the lease; false when the round is no longer this owner's (or no longer running). */
export async function renewLease(
  db: Kysely<Database>,
  roundId: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable("rounds")
    .set({ lease_expires_at: at(Date.now() + leaseMs) })
    .where("id", "=", roundId)
    .where("status", "=", "running")
    .where("lease_owner", "=", owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Running commissioner rounds whose lease lapsed: their session is gone. */
export async function orphanedRounds(db: Kysely<Database>, leagueId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("rounds")
    .select("id")
    .where("league_id", "=", leagueId)
    .where("status", "=", "running")
    .where("commissioner_runnable_id", "is not", null)
    .where("lease_expires_at", "<", at(Date.now()))
    .execute();
  return rows.map((r) => r.id);
}

export async function pendingRounds(db: Kysely<Database>, leagueId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("rounds")
    .select("id")
    .where("league_id", "=", leagueId)
    .where("status", "=", "pending")
    .where("commissioner_runnable_id", "is not", null)
    .orderBy("created_at")
    .execute();
  return rows.map((r) => r.id);
}
