// A round whose commissioner failed: failed, unscored, with the reason and the commissioner's
// log (capped) kept for the league's owner; its unfinished episodes are cancelled. Failure is
// never a result: no ranking, no rating, no membership event comes of it.
import type { Kysely } from "kysely";

import { cancelEpisodes } from "../../episodes/episodes.ts";
import type { EventBus } from "../../events/bus.ts";
import { withEvents } from "../../events/record.ts";
import { nowIso } from "../../shared/clock.ts";
import type { Database } from "../../store/schema.ts";

/** The log kept on a failed round, at most. */
export const COMMISSIONER_LOG_CAP = 64 * 1024;

export async function failRound(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  roundId: string,
  reason: string,
  log: string,
): Promise<boolean> {
  return withEvents(db, bus, async (trx, emit) => {
    const round = await trx
      .selectFrom("rounds")
      .selectAll()
      .where("id", "=", roundId)
      .executeTakeFirst();
    if (!round) return false;
    const claimed = await trx
      .updateTable("rounds")
      .set({
        status: "failed",
        active: null,
        completed_at: nowIso(),
        error: reason,
        commissioner_log:
          log.length > COMMISSIONER_LOG_CAP ? log.slice(-COMMISSIONER_LOG_CAP) : log,
        lease_owner: null,
        lease_expires_at: null,
      })
      .where("id", "=", roundId)
      .where("status", "in", ["pending", "running"])
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const open = await trx
      .selectFrom("episode_requests")
      .select("id")
      .where("round_id", "=", roundId)
      .where("status", "not in", ["completed", "failed", "cancelled"])
      .execute();
    await cancelEpisodes(
      trx,
      open.map((e) => e.id),
      `round ${roundId} failed: ${reason}`,
    );
    const league = await trx
      .selectFrom("leagues")
      .selectAll()
      .where("id", "=", round.league_id)
      .executeTakeFirst();
    const division = await trx
      .selectFrom("divisions")
      .selectAll()
      .where("id", "=", round.division_id)
      .executeTakeFirst();
    if (league && division)
      emit({
        type: "round_failed",
        refs: { league, division },
        roundId,
        headline: `${division.name}: round ${round.round_number} failed`,
        summary: reason,
        payload: {
          round_id: roundId,
          round_number: round.round_number,
          status: "failed",
          episodes: round.episode_count,
          failed_episodes: open.length,
        },
      });
    return true;
  });
}
