// What belongs to a user: their own things (images, uploads, games, coworlds and their secrets,
// play modules, sessions they created) are theirs and admins' to read and change.
import { actsAsUser, isAuthenticated, type Identity } from "../auth/identity.ts";
import { actsAsAdmin, type AdminActor } from "./admin.ts";

export function ownsOrAdmin(
  identity: Identity | ({ readonly userId: string } & AdminActor),
  ownerUserId: string | null,
): boolean {
  return "userId" in identity && (actsAsAdmin(identity) || identity.userId === ownerUserId);
}

/** Like ownsOrAdmin, but the owner must act as a person (a user token, not a player or machine). */
export function ownsAsPersonOrAdmin(identity: Identity, ownerUserId: string | null): boolean {
  return (
    isAuthenticated(identity) &&
    (actsAsAdmin(identity) || (actsAsUser(identity) && identity.userId === ownerUserId))
  );
}
