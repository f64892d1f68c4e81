// First start of an empty store: create an admin and say how to sign in.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { newPassword } from "../auth/secrets.ts";
import type { Store } from "../store/database.ts";
import { countUsers, createUser } from "./users.ts";

export const FIRST_ADMIN_EMAIL = "admin@localhost";

export interface FirstAdmin {
  email: string;
  password: string;
  /** Where the credentials are saved, readable only by the operator (mode 0600). */
  credentialsFile: string;
}

/** Creates the first admin when there is no user at all; returns its credentials once. */
export async function ensureFirstAdmin(store: Store, dataDir: string): Promise<FirstAdmin | null> {
  if ((await countUsers(store.db)) > 0) return null;
  const password = newPassword();
  try {
    await createUser(store.db, { email: FIRST_ADMIN_EMAIL, password, isAdmin: true });
  } catch (error) {
    // Another replica starting at the same moment created it first.
    if ((await countUsers(store.db)) > 0) return null;
    throw error;
  }
  // Saved beside the banner whatever the store: with PostgreSQL only the replica that created the
  // admin prints it, and a log line is easily lost. The data directory exists for every store.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const credentialsFile = join(dataDir, "first-admin.txt");
  writeFileSync(credentialsFile, `email: ${FIRST_ADMIN_EMAIL}\npassword: ${password}\n`, {
    mode: 0o600,
  });
  return { email: FIRST_ADMIN_EMAIL, password, credentialsFile };
}
