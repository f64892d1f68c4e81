// The administration commands (`migrate`, `users add`, `tokens create`, `games add`): each
// opens the store and does its one thing, without booting the server, so that it answers in
// about a second and works while the server runs on the same storage. Only `migrate`, or a
// store that has never been migrated (or is behind this version), applies migrations.
import { resolveConfig } from "../config.ts";
import { createGame } from "../games/games.ts";
import { createApiToken } from "../identity/tokens.ts";
import { createUser, findUserByEmail } from "../identity/users.ts";
import { openStore, type Store } from "../store/database.ts";
import { readSecretFromStdin } from "./read-secret.ts";
import type { StorageFlags } from "./storage-options.ts";

const MACHINE_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

async function withStore<T>(
  flags: StorageFlags,
  run: (store: Store) => Promise<T>,
  options: { migrate?: "always" | "when-pending" } = {},
): Promise<T> {
  const config = resolveConfig({ dataDir: flags.dataDir, databaseUrl: flags.databaseUrl });
  const store = openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    pgSchema: config.databaseSchema,
  });
  try {
    if (options.migrate === "always" || (await store.hasPendingMigrations())) await store.migrate();
    return await run(store);
  } finally {
    await store.close();
  }
}

export async function migrate(flags: StorageFlags): Promise<void> {
  await withStore(
    flags,
    async (store) => {
      process.stdout.write(`migrations applied (${store.engine}: ${store.location})\n`);
    },
    { migrate: "always" },
  );
}

export async function addUser(
  flags: StorageFlags & { email: string; admin: boolean },
): Promise<void> {
  const password = await readSecretFromStdin(`Password for ${flags.email}: `);
  await withStore(flags, async (store) => {
    const user = await createUser(store.db, { email: flags.email, password, isAdmin: flags.admin });
    process.stdout.write(`added ${user.email}${flags.admin ? " (admin)" : ""} as ${user.id}\n`);
  });
}

export async function createToken(
  flags: StorageFlags & { email: string; machine?: string; name: string; json: boolean },
): Promise<void> {
  if (flags.machine !== undefined && !MACHINE_NAME.test(flags.machine))
    throw new Error(`invalid machine name ${flags.machine}: use lowercase letters, digits, . _ -`);
  await withStore(flags, async (store) => {
    const user = await findUserByEmail(store.db, flags.email);
    if (!user) throw new Error(`no user with email ${flags.email}`);
    const created = await createApiToken(store.db, {
      userId: user.id,
      name: flags.name,
      kind: flags.machine ? "machine" : "user",
      machineName: flags.machine,
    });
    process.stdout.write(
      flags.json ? `${JSON.stringify({ token: created.token })}\n` : `${created.token}\n`,
    );
  });
}

export async function addGame(
  flags: StorageFlags & { name: string; description?: string; ownerEmail?: string },
): Promise<void> {
  await withStore(flags, async (store) => {
    const owner = flags.ownerEmail
      ? await findUserByEmail(store.db, flags.ownerEmail)
      : await store.db
          .selectFrom("users")
          .selectAll()
          .where("is_admin", "=", 1)
          .orderBy("created_at")
          .executeTakeFirst();
    if (!owner)
      throw new Error(
        flags.ownerEmail
          ? `no user with email ${flags.ownerEmail}`
          : "no admin exists yet: start the server once or add one with `users add --admin`",
      );
    const game = await createGame(store.db, {
      name: flags.name,
      ownerUserId: owner.id,
      description: flags.description,
    });
    process.stdout.write(`${game.id}\n`);
  });
}
