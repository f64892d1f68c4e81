// The embedded runner's machine token: machine identity `embedded-runner`, owned by the first
// admin. Only a hash is stored in the database, so the value is kept in the data directory
// (owner-only, like first-admin.txt) and reused while it still authenticates.
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import type { Kysely } from "kysely";

import { hashToken } from "../auth/secrets.ts";
import { createApiToken } from "../identity/tokens.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { firstAdminIdentity } from "./first-admin.ts";

export const EMBEDDED_MACHINE = "embedded-runner";
export const TOKEN_FILE = "embedded-runner.token";

async function stillValid(db: Kysely<Database>, token: string): Promise<boolean> {
  const row = await db
    .selectFrom("tokens")
    .innerJoin("machines", "machines.id", "tokens.machine_id")
    .select(["tokens.expires_at"])
    .where("tokens.token_hash", "=", hashToken(token))
    .where("tokens.kind", "=", "machine")
    .where("tokens.revoked_at", "is", null)
    .where("machines.name", "=", EMBEDDED_MACHINE)
    .executeTakeFirst();
  return row !== undefined && (row.expires_at === null || row.expires_at > nowIso());
}

export async function embeddedRunnerToken(db: Kysely<Database>, dataDir: string): Promise<string> {
  const file = join(dataDir, TOKEN_FILE);
  const saved = await readFile(file, "utf8").then(
    (text) => text.trim(),
    () => "",
  );
  if (saved !== "" && (await stillValid(db, saved))) return saved;
  const admin = await firstAdminIdentity(db);
  if (!admin) throw new Error("no admin exists to own the embedded runner's machine token");
  const created = await createApiToken(db, {
    userId: admin.userId,
    name: "embedded runner",
    kind: "machine",
    machineName: EMBEDDED_MACHINE,
  });
  await writeFile(file, `${created.token}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return created.token;
}
