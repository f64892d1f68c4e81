// API tokens, player tokens and credentials, and the one-time CLI sign-in codes.
// Only hashes of token values are stored; a value is shown once, at creation.
import type { Kysely } from "kysely";

import { newId, type Token } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { hashToken, newSecret, tokenPrefixes } from "../auth/secrets.ts";
import { nowIso } from "../shared/clock.ts";
import { badRequest, forbidden, gone, notFound } from "../shared/errors.ts";
import type { Database, TokensTable } from "../store/schema.ts";

const PLAYER_LOGIN_TTL_MS = 24 * 3600_000;
const AUTH_CODE_TTL_MS = 5 * 60_000;

type TokenRow = TokensTable & { machine_name: string | null };

function toToken(row: TokenRow): Token {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    machine_id: row.machine_id,
    machine_name: row.machine_name,
    player_id: row.player_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
  };
}

async function ensureMachine(
  db: Kysely<Database>,
  ownerUserId: string,
  name: string,
): Promise<{ id: string; name: string }> {
  const existing = await db
    .selectFrom("machines")
    .select(["id", "name"])
    .where("owner_user_id", "=", ownerUserId)
    .where("name", "=", name)
    .executeTakeFirst();
  if (existing) return existing;
  const row = { id: newId("machine"), name, owner_user_id: ownerUserId, created_at: nowIso() };
  await db.insertInto("machines").values(row).execute();
  return row;
}

export interface NewApiToken {
  userId: string;
  name: string;
  kind: "user" | "machine";
  machineName?: string | undefined;
  expiresInDays?: number | undefined;
}

/** Creates a user or machine token; returns its record and its value (shown once). */
export async function createApiToken(
  db: Kysely<Database>,
  input: NewApiToken,
): Promise<Token & { token: string }> {
  const machine =
    input.kind === "machine"
      ? await ensureMachine(db, input.userId, input.machineName ?? input.name)
      : null;
  const token = newSecret(input.kind === "machine" ? tokenPrefixes.machine : tokenPrefixes.user);
  const row: TokensTable = {
    id: newId("token"),
    token_hash: hashToken(token),
    kind: input.kind,
    purpose: "api",
    name: input.name,
    user_id: input.userId,
    machine_id: machine?.id ?? null,
    player_id: null,
    created_at: nowIso(),
    expires_at: input.expiresInDays
      ? new Date(Date.now() + input.expiresInDays * 86400_000).toISOString()
      : null,
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto("tokens").values(row).execute();
  return { ...toToken({ ...row, machine_name: machine?.name ?? null }), token };
}

function tokenRows(db: Kysely<Database>) {
  return db
    .selectFrom("tokens")
    .leftJoin("machines", "machines.id", "tokens.machine_id")
    .selectAll("tokens")
    .select("machines.name as machine_name");
}

export async function listTokens(db: Kysely<Database>, userId: string): Promise<Token[]> {
  const rows = await tokenRows(db)
    .where("tokens.user_id", "=", userId)
    .where("tokens.revoked_at", "is", null)
    .where("tokens.purpose", "=", "api")
    .orderBy("tokens.created_at")
    .execute();
  return rows.map(toToken);
}

export async function revokeToken(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  tokenId: string,
): Promise<Token> {
  const row = await tokenRows(db)
    .where("tokens.id", "=", tokenId)
    .where("tokens.revoked_at", "is", null)
    .executeTakeFirst();
  if (!row || (row.user_id !== identity.userId && !actsAsAdmin(identity)))
    throw notFound("token", tokenId);
  const revokedAt = nowIso();
  await db.updateTable("tokens").set({ revoked_at: revokedAt }).where("id", "=", tokenId).execute();
  return toToken(row);
}

export async function createPlayerToken(
  db: Kysely<Database>,
  player: { id: string; owner_user_id: string },
  purpose: "login" | "credential",
  name: string,
): Promise<{ row: TokensTable; token: string }> {
  const token = newSecret(tokenPrefixes.player);
  const row: TokensTable = {
    id: newId(purpose === "login" ? "token" : "credential"),
    token_hash: hashToken(token),
    kind: "player",
    purpose,
    name,
    user_id: player.owner_user_id,
    machine_id: null,
    player_id: player.id,
    created_at: nowIso(),
    expires_at:
      purpose === "login" ? new Date(Date.now() + PLAYER_LOGIN_TTL_MS).toISOString() : null,
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto("tokens").values(row).execute();
  return { row, token };
}

/** A one-time sign-in code for the command line, valid for five minutes. */
export async function createAuthCode(db: Kysely<Database>, userId: string): Promise<string> {
  const code = newSecret(tokenPrefixes.code);
  const now = Date.now();
  await db
    .insertInto("auth_codes")
    .values({
      code_hash: hashToken(code),
      user_id: userId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + AUTH_CODE_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return code;
}

const CODE_PATTERN = new RegExp(`^${tokenPrefixes.code}[A-Za-z0-9_-]{43}$`);

/** Turns a code into a new user token; a code works once. */
export async function exchangeAuthCode(db: Kysely<Database>, code: string): Promise<string> {
  // What createAuthCode makes: the prefix and 32 random bytes in base64url.
  if (!CODE_PATTERN.test(code.trim()))
    throw badRequest("This is not a sign-in code: copy the whole code the sign-in page showed.");
  const hash = hashToken(code.trim());
  const now = nowIso();
  // The conditional update is the claim: of two concurrent exchanges only one changes a row.
  const claimed = await db
    .updateTable("auth_codes")
    .set({ used_at: now })
    .where("code_hash", "=", hash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("user_id")
    .executeTakeFirst();
  // 410, as the hosted service answers: the client tells the person to sign in again.
  if (!claimed) throw gone("The sign-in code is unknown, expired or already used: sign in again.");
  const created = await createApiToken(db, {
    userId: claimed.user_id,
    name: `cli ${now}`,
    kind: "user",
  });
  return created.token;
}

export function assertCanCreateMachineToken(identity: AuthenticatedIdentity): void {
  if (!actsAsAdmin(identity))
    throw forbidden(
      "Only admins create machine tokens: machine identities get the service budget.",
    );
}
