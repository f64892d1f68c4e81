// First start of an empty store: create an admin and say how to sign in.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { newPassword } from "../auth/secrets.ts";
import type { Store } from "../store/database.ts";
import { countUsers, createUser } from "./users.ts";

export const FIRST_ADMIN_EMAIL = "admin@localhost";

export interface FirstAdmin {
  email: string;
  password: string;
  credentialsFile: string | null;
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
  let credentialsFile: string | null = null;
  if (store.engine === "sqlite") {
    credentialsFile = join(dataDir, "first-admin.txt");
    writeFileSync(credentialsFile, `email: ${FIRST_ADMIN_EMAIL}\npassword: ${password}\n`, {
      mode: 0o600,
    });
  }
  return { email: FIRST_ADMIN_EMAIL, password, credentialsFile };
}
