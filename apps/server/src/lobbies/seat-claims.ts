// People in a lobby's human seats: claiming one (with a policy version of theirs to play it when
// the lobby is started), leaving, and a seat emptied by its holder or the lobby's managers.
import type { Kysely } from "kysely";

import type { Lobby } from "@gauntlet/core";

import { ownsOrAdmin } from "../access/ownership.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, forbidden, invalidInput } from "../shared/errors.ts";
import type { Database, LobbySeatsTable } from "../store/schema.ts";
import {
  mayManage,
  openLobbySeat,
  refuseNonPersons,
  requireOpen,
  whileOpen,
} from "./lobby-guards.ts";
import { getLobby } from "./lobby-reads.ts";
import { HUMAN, seatsOf, visibleLobby } from "./lobby-rows.ts";

/** Empties a claimed seat: a reserved seat stays reserved for its person; an open seat opens again. */
async function emptySeat(db: Kysely<Database>, id: string, seat: LobbySeatsTable): Promise<void> {
  await db
    .updateTable("lobby_seats")
    .set({
      user_id: seat.kind === "human" ? seat.user_id : null,
      policy_version_id: null,
      claimed_at: null,
    })
    .where("lobby_id", "=", id)
    .where("position", "=", seat.position)
    .execute();
}

export async function claimSeat(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  position: number,
  policyVersionId: string | undefined,
): Promise<Lobby> {
  const { seat } = await openLobbySeat(db, identity, id, position);
  if (!HUMAN.includes(seat.kind))
    throw conflict(
      `seat ${position} is a ${seat.kind} seat; only human seats are claimed`,
      "seat_not_claimable",
    );
  if (seat.kind === "human" && seat.user_id !== identity.userId)
    throw forbidden(`seat ${position} is reserved for another user`);
  if (seat.claimed_at !== null) throw conflict(`seat ${position} is already claimed`, "seat_taken");
  let versionId: string | null = null;
  if (policyVersionId !== undefined) {
    const version = await db
      .selectFrom("policy_versions as pv")
      .innerJoin("policies as p", "p.id", "pv.policy_id")
      .select(["pv.id", "p.owner_user_id"])
      .where("pv.id", "=", policyVersionId)
      .executeTakeFirst();
    if (!version || !ownsOrAdmin(identity, version.owner_user_id)) {
      throw invalidInput(
        ["body", "policy_version_id"],
        `no policy version ${policyVersionId} of yours`,
        "value_error",
        policyVersionId,
      );
    }
    versionId = version.id;
  }
  const res = await db
    .updateTable("lobby_seats")
    .set({ user_id: identity.userId, policy_version_id: versionId, claimed_at: nowIso() })
    .where("lobby_id", "=", id)
    .where("position", "=", position)
    .where("claimed_at", "is", null)
    .where(whileOpen(id))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1)
    throw conflict(
      `seat ${position} was taken or the lobby left the open state meanwhile`,
      "seat_taken",
    );
  return getLobby(db, identity, id);
}

export async function leaveLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  refuseNonPersons(identity);
  const { row } = await visibleLobby(db, identity, id);
  requireOpen(row);
  const mine = (await seatsOf(db, id)).filter(
    (s) => HUMAN.includes(s.kind) && s.claimed_at !== null && s.user_id === identity.userId,
  );
  if (mine.length === 0) throw conflict(`you hold no seat in lobby ${id}`, "not_seated");
  await db.transaction().execute(async (trx) => {
    for (const seat of mine) await emptySeat(trx, id, seat);
  });
  return getLobby(db, identity, id);
}

export async function removeSeatPlayer(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  position: number,
): Promise<Lobby> {
  const { row, league, seat } = await openLobbySeat(db, identity, id, position);
  if (!HUMAN.includes(seat.kind) || seat.claimed_at === null)
    throw conflict(`seat ${position} of lobby ${id} has nobody in it`, "seat_not_claimed");
  if (seat.user_id !== identity.userId && !mayManage(identity, row, league))
    throw forbidden(
      `seat ${position} is someone else's; only they or the lobby's managers empty it`,
    );
  await emptySeat(db, id, seat);
  return getLobby(db, identity, id);
}
