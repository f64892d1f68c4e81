// A division whose rounds stop says why in its feed, once: when the scheduler finds no round can
// start for a reason that lasts until something changes (every rank settled, too few players,
// settings the game cannot seat), it writes one `division_quiet` event with the reason; it writes
// another only after a round has started or for a different reason. Passing reasons (a round
// still running, not due yet, paused by the commissioner) say nothing.
import type { Kysely } from "kysely";

import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { parseJson } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { divisionWithLeague } from "./divisions.ts";

const QUIET_REASONS = new Set([
  "settled",
  "below_min_players",
  "too_few_players",
  "no_filler_policies",
  "too_many_episodes",
  "invalid_settings",
  "no_coworld",
  "invalid_coworld",
  "unknown_variant",
  "unsupported_players_per_episode",
]);

export function isQuietReason(reason: string): boolean {
  return QUIET_REASONS.has(reason);
}

/** The reason of the division's standing quiet notice, or null when a round started after it. */
export async function currentQuiet(
  db: Kysely<Database>,
  divisionId: string,
): Promise<string | null> {
  const last = await db
    .selectFrom("competition_events")
    .select(["event_type", "payload"])
    .where("division_id", "=", divisionId)
    .where("event_type", "in", ["round_started", "division_quiet"])
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  if (last?.event_type !== "division_quiet") return null;
  return parseJson<{ reason?: string }>(last.payload).reason ?? null;
}

/** Writes the notice unless the division already stands quiet for this reason. Returns whether it wrote. */
export async function noteQuiet(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  divisionId: string,
  skip: { reason: string; message: string },
): Promise<boolean> {
  if (!isQuietReason(skip.reason)) return false;
  if ((await currentQuiet(db, divisionId)) === skip.reason) return false;
  const found = await divisionWithLeague(db, divisionId);
  if (!found) return false;
  const { division, league } = found;
  await withEvents(db, bus, async (_trx, emit) => {
    emit({
      type: "division_quiet",
      refs: { league, division },
      roundId: null,
      headline:
        skip.reason === "settled"
          ? `${division.name}: quiet: every rank settled — no rounds until a new entrant, a new champion or a promotion`
          : `${division.name}: quiet: no rounds — ${skip.message}`,
      summary: skip.message,
      payload: { reason: skip.reason, message: skip.message },
    });
  });
  return true;
}
