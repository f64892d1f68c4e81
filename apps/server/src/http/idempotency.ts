// docs/api.md, "Conventions": creating writes accept `Idempotency-Key`. The same key and body
// within 24 h return the first response and create nothing; the same key with another body is 409.
import { createHash } from "node:crypto";

import type { Kysely } from "kysely";

import { nowIso } from "../shared/clock.ts";
import { conflict } from "../shared/errors.ts";
import { jsonText } from "../shared/json-text.ts";
import type { Database } from "../store/schema.ts";

const WINDOW_MS = 24 * 3600_000;
export const IDEMPOTENCY_HEADER = "idempotency-key";

export interface StoredResponse {
  status: number;
  body: unknown;
}

function requestHash(parts: unknown): string {
  return createHash("sha256").update(jsonText(parts)).digest("hex");
}

/**
 * Runs `create` at most once per (scope, key): the first caller claims the key by inserting
 * it; later callers with the same body get the stored response.
 */
export async function once(
  db: Kysely<Database>,
  scope: string,
  key: string,
  request: unknown,
  create: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (key.length === 0 || key.length > 200)
    throw conflict(
      "The Idempotency-Key header must have 1 to 200 characters.",
      "invalid_idempotency_key",
    );
  const hash = requestHash(request);
  const claimed = await claim(db, scope, key, hash);
  if (!claimed) {
    const row = await db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("scope", "=", scope)
      .where("key", "=", key)
      .executeTakeFirst();
    if (!row)
      throw conflict(
        "The Idempotency-Key was released while this request ran; retry it.",
        "idempotency_key_in_flux",
      );
    if (row.request_hash !== hash)
      throw conflict(
        "This Idempotency-Key was used with a different request body.",
        "idempotency_key_reused",
      );
    if (row.status === null || row.response_body === null)
      throw conflict(
        "A request with this Idempotency-Key is still running.",
        "idempotency_key_in_progress",
      );
    return { status: row.status, body: JSON.parse(row.response_body), replayed: true };
  }
  try {
    const response = await create();
    await db
      .updateTable("idempotency_keys")
      .set({ status: response.status, response_body: JSON.stringify(response.body) })
      .where("scope", "=", scope)
      .where("key", "=", key)
      .execute();
    return { ...response, replayed: false };
  } catch (error) {
    // A failed attempt leaves nothing behind, so a retry with the same key can succeed.
    await db
      .deleteFrom("idempotency_keys")
      .where("scope", "=", scope)
      .where("key", "=", key)
      .execute();
    throw error;
  }
}

async function claim(
  db: Kysely<Database>,
  scope: string,
  key: string,
  hash: string,
): Promise<boolean> {
  const expired = new Date(Date.now() - WINDOW_MS).toISOString();
  await db
    .deleteFrom("idempotency_keys")
    .where("scope", "=", scope)
    .where("key", "=", key)
    .where("created_at", "<", expired)
    .execute();
  const result = await db
    .insertInto("idempotency_keys")
    .values({
      scope,
      key,
      request_hash: hash,
      status: null,
      response_body: null,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(["scope", "key"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}
