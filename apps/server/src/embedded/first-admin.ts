// The first admin acting as itself, for what the server does on its own behalf at start-up.
import type { Kysely } from "kysely";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { Database } from "../store/schema.ts";

export async function firstAdminIdentity(
  db: Kysely<Database>,
): Promise<AuthenticatedIdentity | null> {
  const admin = await db
    .selectFrom("users")
    .select(["id", "email"])
    .where("is_admin", "=", 1)
    .orderBy("created_at")
    .orderBy("id")
    .executeTakeFirst();
  if (!admin) return null;
  return {
    kind: "user",
    subjectId: admin.id,
    userId: admin.id,
    email: admin.email,
    adminRole: true,
    // The server acting on its own behalf, not a request: its admin powers apply.
    elevated: true,
    scopes: ["user", "admin"],
    tokenId: "server-start",
    budget: { key: admin.id, kind: "user" },
  };
}
