// Which episodes keep their files. Kept: every episode someone asked for — evaluations,
// tournaments, lobbies and play sessions, certification, manual requests, bulk uploads — and
// the newest `keep` league-round episodes of each division, never fewer than the web view lists
// (its replay links must lead to replays). Older round episodes lose their replay, logs and
// player logs and artifacts; their results, scores and error stay (they are the rating record),
// and `artifacts_expired_at` says when the files went.
import type { Kysely } from "kysely";

import { LISTED_EPISODES } from "../home/listed.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";

/** Small and part of the record: read by episode-stats and the ledger, never expired. */
const KEPT_ARTIFACTS = ["results", "error-info"];
const FINAL = ["completed", "failed", "cancelled"] as const;
const BATCH = 500;

/**
 * Expires the files of round episodes beyond the newest `keep` of each division (at least the
 * web view's `LISTED_EPISODES`); answers how many.
 */
export async function expireRoundArtifacts(
  db: Kysely<Database>,
  setting: number,
  now = nowIso(),
): Promise<number> {
  // The web view lists a division's newest episodes in this order (created_at, then id, newest
  // first), round episodes and others alike; the others keep their files anyway, so the newest
  // LISTED_EPISODES round episodes hold every round episode it links to.
  const keep = Math.max(setting, LISTED_EPISODES);
  const divisions = await db
    .selectFrom("episode_requests")
    .select("division_id")
    .distinct()
    .where("purpose", "=", "round")
    .where("artifacts_expired_at", "is", null)
    .where("division_id", "is not", null)
    .execute();
  let expired = 0;
  for (const { division_id: division } of divisions) {
    if (division === null) continue;
    // The newest `keep` of the division (any state) stay; of the rest, only settled ones go.
    const newest = db
      .selectFrom("episode_requests")
      .select("id")
      .where("purpose", "=", "round")
      .where("division_id", "=", division)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(keep);
    for (;;) {
      const batch = await db
        .selectFrom("episode_requests")
        .select("id")
        .where("purpose", "=", "round")
        .where("division_id", "=", division)
        .where("artifacts_expired_at", "is", null)
        .where("status", "in", FINAL)
        .where("id", "not in", newest)
        .limit(BATCH)
        .execute();
      if (batch.length === 0) break;
      const ids = batch.map((r) => r.id);
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom("artifacts")
          .where("episode_request_id", "in", ids)
          .where("name", "not in", KEPT_ARTIFACTS)
          .execute();
        await trx
          .updateTable("episode_requests")
          .set({ artifacts_expired_at: now })
          .where("id", "in", ids)
          .execute();
      });
      expired += ids.length;
      if (batch.length < BATCH) break;
    }
  }
  return expired;
}
