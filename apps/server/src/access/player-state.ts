// Player state (episodes/player-state.ts) is its player's owner's: only they play with it (a
// seat's state is used only when the request is theirs), freeze it into snapshots and start
// from those snapshots; admins may read it too. Anyone else is told nothing exists.
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { ownsOrAdmin } from "./ownership.ts";

/** Whether the requester's request plays with (reads and writes) this owner's state. */
export function playsWithState(identity: AuthenticatedIdentity, ownerUserId: string): boolean {
  return identity.userId === ownerUserId;
}

export function canReadState(identity: Identity, ownerUserId: string): boolean {
  return ownsOrAdmin(identity, ownerUserId);
}
