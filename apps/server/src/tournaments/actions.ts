// The actions that move a tournament between states (docs/api.md, "Tournaments in short"): start,
// advance and cancel; lock draws the bracket (tournaments.ts). Each answers 409 in the wrong state.
import type { Kysely, Transaction, Updateable } from "kysely";

import type { Tournament, TournamentStatus } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { cancelExperienceRequest } from "../evaluations/experience-requests.ts";
import type { EventBus } from "../events/bus.ts";
import { withEvents, type Emit } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import { ServiceError } from "../shared/errors.ts";
import type { Database, TournamentsTable } from "../store/schema.ts";
import { advanceInTurn } from "./in-turn.ts";
import { tournamentEnded, tournamentStarted } from "./tournament-events.ts";
import {
  changeableTournamentRow,
  tournamentRow,
  tournamentView,
  wrongState,
} from "./tournaments.ts";
import { actorOf } from "./waves.ts";

type Bus = Pick<EventBus, "publish">;

/** How an action moves a tournament on: its name (for a 409), the row's new state and its events. */
interface Move {
  action: string;
  set: (now: string) => Updateable<TournamentsTable>;
  record: (trx: Transaction<Database>, emit: Emit, row: TournamentsTable) => Promise<void>;
}

/**
 * The caller moves the tournament on from one of the states `from` by a conditional update (so
 * that two actions cannot both move it), with the move's events; 409 in any other state. Answers
 * the row as it was before.
 */
async function moveFrom(
  db: Kysely<Database>,
  bus: Bus,
  identity: AuthenticatedIdentity,
  id: string,
  from: readonly TournamentStatus[],
  move: Move,
): Promise<TournamentsTable> {
  const row = await changeableTournamentRow(db, identity, id);
  const now = nowIso();
  const moved = await withEvents(db, bus, async (trx, emit) => {
    const res = await trx
      .updateTable("tournaments")
      .set(move.set(now))
      .where("id", "=", id)
      .where("status", "in", from)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await move.record(trx, emit, row);
    return true;
  });
  if (!moved) throw wrongState(await tournamentRow(db, id), move.action, from);
  return row;
}

/** locked → running, and the first wave goes out. */
export async function startTournament(
  db: Kysely<Database>,
  bus: Bus,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Tournament> {
  await moveFrom(db, bus, identity, id, ["locked"], {
    action: "start",
    set: (now) => ({ status: "running", started_at: now, updated_at: now }),
    record: tournamentStarted,
  });
  await advanceInTurn(db, bus, id);
  return tournamentView(db, await tournamentRow(db, id));
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
  return tournamentView(db, await tournamentRow(db, id));
}

/** draft | locked | running → cancelled; the wave playing is cancelled with it. */
export async function cancelTournament(
  db: Kysely<Database>,
  bus: Bus,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Tournament> {
  const row = await moveFrom(db, bus, identity, id, ["draft", "locked", "running"], {
    action: "cancel",
    set: (now) => ({ status: "cancelled", completed_at: now, updated_at: now }),
    record: (trx, emit, before) => tournamentEnded(trx, emit, before, "cancelled"),
  });
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
  return tournamentView(db, await tournamentRow(db, id));
}
