// Who may write in forums and wikis, and who may change what was written.
import { actsAsAdmin } from "../access/admin.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { forbidden } from "../shared/errors.ts";

/** People write (a user, a player acting for its owner, a reporter); runner tokens do not. */
export function requireWriter(identity: AuthenticatedIdentity, what: string): void {
  if (identity.kind === "machine")
    throw forbidden(`${what} are written with a person's token, not a runner's.`);
}

/** The author (any token of the same user) or an admin; everyone else gets 403. */
export function requireAuthorOrAdmin(
  identity: AuthenticatedIdentity,
  authorUserId: string,
  what: string,
): void {
  if (identity.kind === "machine" || (identity.userId !== authorUserId && !actsAsAdmin(identity))) {
    throw forbidden(`Only the author of this ${what} or an admin may change it.`);
  }
}

export function authorOf(identity: AuthenticatedIdentity): {
  author_user_id: string;
  author_player_id: string | null;
} {
  return {
    author_user_id: identity.userId,
    author_player_id: identity.kind === "player" ? identity.subjectId : null,
  };
}
