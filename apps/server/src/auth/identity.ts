import type { SubjectType } from "@gauntlet/core";

export interface AuthenticatedIdentity {
  readonly kind: Exclude<SubjectType, "anonymous">;
  /** The acting subject: a user, player, machine or reporter id. */
  readonly subjectId: string;
  /** The user that owns the subject (the user itself for a user token). */
  readonly userId: string;
  readonly email: string;
  /**
   * Holds the admin role. Its powers apply only when `elevated` too: read both through
   * access/admin.ts (actsAsAdmin), never this flag alone.
   */
  readonly adminRole: boolean;
  /**
   * The request asked for its admin powers (`X-Use-Elevated-Privileges: true`), or the server
   * acts on its own behalf. Without it an admin is an ordinary user.
   */
  readonly elevated: boolean;
  readonly scopes: readonly string[];
  readonly tokenId: string;
  /** Players and reporter runs draw on their owner's budget; machines on their own. */
  readonly budget: { readonly key: string; readonly kind: "user" | "machine" };
}

export type Identity = { readonly kind: "anonymous" } | AuthenticatedIdentity;

export const ANONYMOUS: Identity = { kind: "anonymous" };

export function isAuthenticated(identity: Identity): identity is AuthenticatedIdentity {
  return identity.kind !== "anonymous";
}

/** A user acting as themselves (not a player, machine or reporter), e.g. for commissioner writes. */
export function actsAsUser(identity: Identity): identity is AuthenticatedIdentity {
  return identity.kind === "user";
}
