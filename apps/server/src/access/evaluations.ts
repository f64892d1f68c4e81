// Who may see an evaluation (an experience request): its requester and admins. Its episodes
// follow episodes.ts (the requester, the owners of their seats' policies, admins).
import { isAuthenticated, type Identity } from "../auth/identity.ts";
import type { ExperienceRequestsTable } from "../store/schema.ts";
import { actsAsAdmin } from "./admin.ts";

export function canSeeEvaluation(
  identity: Identity,
  row: Pick<ExperienceRequestsTable, "requester_user_id"> | { requester_user_id: string | null },
): boolean {
  return (
    isAuthenticated(identity) &&
    (actsAsAdmin(identity) || identity.userId === row.requester_user_id)
  );
}
