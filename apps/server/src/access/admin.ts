// Whether a caller acts with admin powers: the one question every admin check asks. Holding the
// admin role is not enough; the request must ask for it (X-Use-Elevated-Privileges: true, set on
// the identity by the request gate), so an admin's everyday requests are an ordinary user's.
import { isAuthenticated, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";

/** What an admin check needs of an actor that is not a request's whole identity. */
export type AdminActor = Pick<AuthenticatedIdentity, "adminRole" | "elevated">;

export function actsAsAdmin(identity: Identity | AdminActor): boolean {
  if ("kind" in identity && !isAuthenticated(identity)) return false;
  return "adminRole" in identity && identity.adminRole && identity.elevated;
}
