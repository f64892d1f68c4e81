// Lobbies and hosted games (play sessions). A lobby is seen by whoever sees its league
// (leagues.ts) and managed by its creator — acting as a person — or the league's commissioner.
// A play session is seen by its creator, the people seated in it, and admins; only its creator
// (or an admin) reads it whole or ends it.
import { actsAsUser, isAuthenticated, type Identity } from "../auth/identity.ts";
import { actsAsAdmin } from "./admin.ts";
import { isCommissioner, type LeagueFacts } from "./leagues.ts";
import { ownsOrAdmin } from "./ownership.ts";

export function canManageLobby(
  identity: Identity,
  lobby: { creator_user_id: string },
  league: Pick<LeagueFacts, "commissioner_user_id">,
): boolean {
  return (
    (actsAsUser(identity) && identity.userId === lobby.creator_user_id) ||
    isCommissioner(identity, league)
  );
}

export function canSeePlaySession(
  identity: Identity,
  session: { user_id: string },
  seats: readonly { user_id: string | null }[],
): boolean {
  if (!isAuthenticated(identity)) return false;
  return (
    actsAsAdmin(identity) ||
    session.user_id === identity.userId ||
    seats.some((s) => s.user_id === identity.userId)
  );
}

/** Reading a session whole and ending it: its creator and admins. */
export function canRunPlaySession(identity: Identity, session: { user_id: string }): boolean {
  return ownsOrAdmin(identity, session.user_id);
}
