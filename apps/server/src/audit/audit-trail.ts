// The audit trail of elevated admin actions (docs/api.md, "Elevated privileges"): every request
// that changes state and acts with admin powers leaves one row — who, when, which operation on
// which path, and the status answered. Never the body: bodies carry passwords and secrets.
import type { Kysely } from "kysely";

import { newId, type AdminAuditEntry, type QueryOf } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";

/** The status recorded for an elevated request whose client left before it was answered (as nginx names it). */
export const CLIENT_CLOSED = 499;

/** Reads leave no trace: only a method that may change state is an action. */
export function isAuditedMethod(method: string): boolean {
  return method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
}

export interface ElevatedAction {
  readonly identity: AuthenticatedIdentity;
  readonly operationId: string;
  readonly method: string;
  /** The request's address; its query string is dropped (it may carry a code or a secret). */
  readonly url: string;
  readonly status: number;
}

export async function recordElevatedAction(
  db: Kysely<Database>,
  action: ElevatedAction,
): Promise<void> {
  const query = action.url.indexOf("?");
  await db
    .insertInto("admin_audit")
    .values({
      id: newId("adminAudit"),
      at: nowIso(),
      user_id: action.identity.userId,
      token_id: action.identity.tokenId,
      operation_id: action.operationId,
      method: action.method,
      path: query === -1 ? action.url : action.url.slice(0, query),
      status: action.status,
    })
    .execute();
}

export async function listElevatedActions(
  db: Kysely<Database>,
  filter: QueryOf<"listAdminAudit">,
): Promise<AdminAuditEntry[]> {
  let q = db
    .selectFrom("admin_audit as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .select([
      "a.id",
      "a.at",
      "a.user_id",
      "u.email as user_email",
      "a.token_id",
      "a.operation_id",
      "a.method",
      "a.path",
      "a.status",
    ])
    .orderBy("a.at", "desc")
    .orderBy("a.id", "desc")
    .limit(filter.limit);
  if (filter.user_id !== undefined) q = q.where("a.user_id", "=", filter.user_id);
  return q.execute();
}
