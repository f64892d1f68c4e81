// How many play sessions one person may keep open. The queue's per-user cap bounds what they
// run (episodes/fair-order.ts); this bounds what they keep waiting: each session holds rows and,
// once started, a runner's slot until it ends.
import type { Transaction } from "kysely";

import { nextValue } from "../shared/counters.ts";
import { ServiceError } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { FINAL } from "./session-status.ts";

/** The sessions one person may have open (waiting or playing) at once. */
export const OPEN_SESSIONS_PER_USER = 8;

/** 429 `play_sessions_open` when the user already has OPEN_SESSIONS_PER_USER sessions open. */
export async function assertRoomForSession(
  trx: Transaction<Database>,
  userId: string,
): Promise<void> {
  // Counted under a lock of the user's own counter row, held until the caller's transaction ends:
  // concurrent openings by one person take turns, so each counts the others' (without it,
  // PostgreSQL let 12 of 24 simultaneous openings through a cap of 8).
  await nextValue(trx, `play_sessions_opened:${userId}`);
  const open = await trx
    .selectFrom("play_sessions")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("user_id", "=", userId)
    .where("status", "not in", [...FINAL])
    .executeTakeFirst();
  const count = Number(open?.n ?? 0);
  if (count >= OPEN_SESSIONS_PER_USER)
    throw new ServiceError(
      429,
      "play_sessions_open",
      `You have ${count} play sessions open (waiting or playing), the most one person may have: end one you host (POST /v2/coworlds/play/session/{id}/terminate) or let one finish (a seat whose page is closed ends within ten minutes) before opening another.`,
      { limit: "play_sessions_open", play_sessions_open: OPEN_SESSIONS_PER_USER },
    );
}
