// Who may act on a lobby, and the conditional writes every change goes through: a lobby changes
// only while it is open (409 when it was started or cancelled meanwhile), seats are for people,
// and what only managers do is refused to the rest.
import type { ExpressionBuilder, Kysely, Updateable } from "kysely";

import { canManageLobby } from "../access/play.ts";
import {
  actsAsUser,
  isAuthenticated,
  type AuthenticatedIdentity,
  type Identity,
} from "../auth/identity.ts";
import { conflict, forbidden, notFound } from "../shared/errors.ts";
import type { Database, LeaguesTable, LobbiesTable, LobbySeatsTable } from "../store/schema.ts";
import { seatsOf, visibleLobby } from "./lobby-rows.ts";

export const mayManage = canManageLobby;

export function whyNot(identity: Identity): string | null {
  if (!isAuthenticated(identity)) return "sign in to create or join a lobby";
  if (!actsAsUser(identity)) return "lobbies are for people: use a user's token";
  return null;
}

/** Seats are taken by people: a machine's (or a player's) token is refused before anything is looked up. */
export function refuseNonPersons(identity: Identity): void {
  const reason = whyNot(identity);
  if (reason) throw forbidden(reason);
}

export function requireOpen(row: LobbiesTable): void {
  if (row.status !== "open")
    throw conflict(`lobby ${row.id} is ${row.status}, not open`, "lobby_not_open", {
      status: row.status,
    });
}

/** Changes an open lobby, by a conditional update: 409 if it was started or cancelled meanwhile. */
export async function updateOpenLobby(
  db: Kysely<Database>,
  id: string,
  set: Updateable<LobbiesTable>,
): Promise<void> {
  const res = await db
    .updateTable("lobbies")
    .set(set)
    .where("id", "=", id)
    .where("status", "=", "open")
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1)
    throw conflict(`lobby ${id} was started or cancelled meanwhile`, "lobby_not_open");
}

/** A start or launch that failed after claiming the lobby gives the claim back. */
export async function reopen(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable("lobbies")
    .set({ status: "open", started_at: null })
    .where("id", "=", id)
    .execute();
}

/** The lobby and its league, for what only its managers do (`what`: "starts it", say). */
export async function managedLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  what: string,
): Promise<{ row: LobbiesTable; league: LeaguesTable }> {
  const { row, league } = await visibleLobby(db, identity, id);
  if (!mayManage(identity, row, league))
    throw forbidden(
      `only the creator of lobby ${id}, the league's commissioner or an admin ${what}`,
    );
  return { row, league };
}

/** As managedLobby, for a change made while the lobby is open. */
export async function managedOpenLobby(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  what: string,
): Promise<{ row: LobbiesTable; league: LeaguesTable }> {
  const managed = await managedLobby(db, identity, id, what);
  requireOpen(managed.row);
  return managed;
}

/** A seat's change applies only while its lobby is still open. */
export const whileOpen = (id: string) => (eb: ExpressionBuilder<Database, "lobby_seats">) =>
  eb.exists(
    eb.selectFrom("lobbies").select("id").where("id", "=", id).where("status", "=", "open"),
  );

/** The seat of an open lobby that a person acts on; 404 for a position the lobby has not. */
export async function openLobbySeat(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
  position: number,
): Promise<{ row: LobbiesTable; league: LeaguesTable; seat: LobbySeatsTable }> {
  refuseNonPersons(identity);
  const { row, league } = await visibleLobby(db, identity, id);
  requireOpen(row);
  const seat = (await seatsOf(db, id)).find((s) => s.position === position);
  if (!seat) throw notFound("seat", `${position} of lobby ${id}`);
  return { row, league, seat };
}
