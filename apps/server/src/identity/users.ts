// Local accounts (email and password, the password hashed with scrypt).
import type { Kysely } from "kysely";

import { newId } from "@gauntlet/core";

import { hashPassword, verifyPassword } from "../auth/secrets.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict } from "../shared/errors.ts";
import type { Database, UsersTable } from "../store/schema.ts";

const EMAIL = /^[^\s@]+@[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;

export async function createUser(
  db: Kysely<Database>,
  input: { email: string; password: string; isAdmin?: boolean },
): Promise<UsersTable> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new Error(`not an email address: ${input.email}`);
  if (input.password.length < MIN_PASSWORD_LENGTH)
    throw new Error(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  const existing = await findUserByEmail(db, email);
  if (existing) throw conflict(`a user with email ${email} already exists`);
  const row: UsersTable = {
    id: newId("user"),
    email,
    password_hash: await hashPassword(input.password),
    is_admin: input.isAdmin ? 1 : 0,
    created_at: nowIso(),
  };
  await db.insertInto("users").values(row).execute();
  return row;
}

export async function findUserByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<UsersTable | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
}

/** The user for these credentials, or undefined; the same work is done for an unknown email. */
export async function checkPassword(
  db: Kysely<Database>,
  email: string,
  password: string,
): Promise<UsersTable | undefined> {
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(
    password,
    user?.password_hash ?? "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$" + "A".repeat(86),
  );
  return ok && user ? user : undefined;
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
