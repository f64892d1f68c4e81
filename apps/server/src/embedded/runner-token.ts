// The embedded runner's machine token: machine identity `embedded-runner`, owned by the first
// admin. A fresh token is made for every start of the runner and handed to it over a pipe; only
// its hash is stored, and it is written to no file (an episode that could read the data directory
// would otherwise hold a credential of the queue). Making one revokes the machine's earlier tokens:
// the runner they were made for is gone. A token file left by an older version is removed.
import { rm } from "node:fs/promises";
import { join } from "node:path";

import type { Kysely } from "kysely";

import { createApiToken } from "../identity/tokens.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { firstAdminIdentity } from "./first-admin.ts";

export const EMBEDDED_MACHINE = "embedded-runner";
/** Where earlier versions kept the token (world-readable to anything running as the server); removed on start. */
export const LEGACY_TOKEN_FILE = "embedded-runner.token";

export async function embeddedRunnerToken(db: Kysely<Database>, dataDir: string): Promise<string> {
  await rm(join(dataDir, LEGACY_TOKEN_FILE), { force: true });
  const admin = await firstAdminIdentity(db);
  if (!admin) throw new Error("no admin exists to own the embedded runner's machine token");
  const created = await createApiToken(db, {
    userId: admin.userId,
    name: "embedded runner",
    kind: "machine",
    machineName: EMBEDDED_MACHINE,
  });
  const machine = await db
    .selectFrom("machines")
    .select("id")
    .where("owner_user_id", "=", admin.userId)
    .where("name", "=", EMBEDDED_MACHINE)
    .executeTakeFirstOrThrow();
  await db
    .updateTable("tokens")
    .set({ revoked_at: nowIso() })
    .where("machine_id", "=", machine.id)
    .where("revoked_at", "is", null)
    .where("id", "!=", created.id)
    .execute();
  return created.token;
}
