// Who manages a coworld name's league seed and commissioner: the name's owner acting as a person
// (not a player or machine token), or an admin. A competitor never patches or seeds another's.
import type { Identity } from "../auth/identity.ts";
import { ownsAsPersonOrAdmin } from "./ownership.ts";

export function managesCoworldName(identity: Identity, ownerUserId: string): boolean {
  return ownsAsPersonOrAdmin(identity, ownerUserId);
}
