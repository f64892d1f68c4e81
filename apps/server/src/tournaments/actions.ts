// The actions that move a tournament between states (docs/api.md, "Tournaments in short"): start,
// advance and cancel; lock draws the bracket (tournaments.ts). Each answers 409 in the wrong state.
import type { Kysely } from "kysely";

import type { Tournament } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { cancelExperienceRequest } from "../evaluations/experience-requests.ts";
import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import { ServiceError } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { advanceInTurn } from "./in-turn.ts";
import { tournamentEnded, tournamentStarted } from "./tournament-events.ts";
import { changeableTournamentRow, tournamentView, wrongState } from "./tournaments.ts";
import { actorOf } from "./waves.ts";

type Bus = Pick<EventBus, "publish">;

const reread = (db: Kysely<Database>, id: string) =>
  db.selectFrom("tournaments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** locked → running, and the first wave goes out. */
export async function startTournament(
  db: Kysely<Database>,
  bus: Bus,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Tournament> {
  const row = await changeableTournamentRow(db, identity, id);
  const now = nowIso();
  const started = await withEvents(db, bus, async (trx, emit) => {
    const res = await trx
      .updateTable("tournaments")
      .set({ status: "running", started_at: now, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", "locked")
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await tournamentStarted(trx, emit, row);
    return true;
  });
  if (!started) throw wrongState(await reread(db, id), "start", ["locked"]);
  await advanceInTurn(db, bus, id);
  return tournamentView(db, await reread(db, id));
}

/** Only while running: decides an ended wave and starts the next (nothing while one plays). */
export async function advanceTournament(
  db: Kysely<Database>,
  bus: Bus,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Tournament> {
  const row = await changeableTournamentRow(db, identity, id);
  if (row.status !== "running") throw wrongState(row, "advance", ["running"]);
  await advanceInTurn(db, bus, id);
  return tournamentView(db, await reread(db, id));
}

/** draft | locked | running → cancelled; the wave playing is cancelled with it. */
export async function cancelTournament(
  db: Kysely<Database>,
  bus: Bus,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Tournament> {
  const row = await changeableTournamentRow(db, identity, id);
  const now = nowIso();
  const cancelled = await withEvents(db, bus, async (trx, emit) => {
    const res = await trx
      .updateTable("tournaments")
      .set({ status: "cancelled", completed_at: now, updated_at: now })
      .where("id", "=", id)
      .where("status", "in", ["draft", "locked", "running"])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await tournamentEnded(trx, emit, row, "cancelled");
    return true;
  });
  if (!cancelled) throw wrongState(await reread(db, id), "cancel", ["draft", "locked", "running"]);
  const waves = await db
    .selectFrom("tournament_matches")
    .select("experience_request_id")
    .distinct()
    .where("tournament_id", "=", id)
    .where("status", "=", "running")
    .execute();
  // The waves were requested as the tournament's creator (waves.ts), so they are withdrawn as them.
  const actor = waves.length > 0 ? await actorOf(db, row.created_by_user_id) : null;
  for (const w of waves) {
    // Already ended requests answer 409; there is nothing left to withdraw then.
    if (w.experience_request_id && actor)
      await cancelExperienceRequest(db, bus, actor, w.experience_request_id).catch(
        (error: unknown) => {
          if (!(error instanceof ServiceError && error.status === 409)) throw error;
        },
      );
  }
  return tournamentView(db, await reread(db, id));
}
