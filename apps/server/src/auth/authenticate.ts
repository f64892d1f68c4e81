// Bearer token → identity. Lookups are cached briefly so a hot token costs no query per
// request; revocations in this process clear the cache at once, elsewhere within the TTL.
import type { Kysely } from "kysely";
import type { AuthenticatedIdentity } from "./identity.ts";
import type { Database } from "../store/schema.ts";
import { hashToken } from "./secrets.ts";

const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

interface CacheEntry {
  identity: AuthenticatedIdentity | null;
  expiresAt: number;
  tokenExpiresAt: number | null;
}

export class Authenticator {
  readonly #db: Kysely<Database>;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #lastUsedWrites = new Map<string, number>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** The identity of a token, or null when it is unknown, revoked or expired. */
  async authenticate(token: string, now = Date.now()): Promise<AuthenticatedIdentity | null> {
    const hash = hashToken(token);
    const cached = this.#cache.get(hash);
    if (cached && cached.expiresAt > now) {
      if (cached.tokenExpiresAt !== null && cached.tokenExpiresAt <= now) return null;
      return cached.identity;
    }
    const row = await this.#db
      .selectFrom("tokens")
      .innerJoin("users", "users.id", "tokens.user_id")
      .leftJoin("machines", "machines.id", "tokens.machine_id")
      .select([
        "tokens.id as token_id",
        "tokens.kind",
        "tokens.user_id",
        "tokens.machine_id",
        "tokens.player_id",
        "tokens.expires_at",
        "tokens.revoked_at",
        "users.email",
        "users.is_admin",
      ])
      .where("tokens.token_hash", "=", hash)
      .executeTakeFirst();
    let identity: AuthenticatedIdentity | null = null;
    let tokenExpiresAt: number | null = null;
    if (row && row.revoked_at === null) {
      tokenExpiresAt = row.expires_at ? Date.parse(row.expires_at) : null;
      const isAdmin = row.is_admin === 1 && row.kind === "user";
      const base = { userId: row.user_id, email: row.email, tokenId: row.token_id };
      if (row.kind === "machine" && row.machine_id) {
        identity = { ...base, kind: "machine", subjectId: row.machine_id, isAdmin: false, scopes: ["runner"], budget: { key: row.machine_id, kind: "machine" } };
      } else if (row.kind === "player" && row.player_id) {
        identity = { ...base, kind: "player", subjectId: row.player_id, isAdmin: false, scopes: ["player"], budget: { key: row.user_id, kind: "user" } };
      } else if (row.kind === "user") {
        identity = { ...base, kind: "user", subjectId: row.user_id, isAdmin, scopes: isAdmin ? ["user", "admin"] : ["user"], budget: { key: row.user_id, kind: "user" } };
      }
    }
    if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
    this.#cache.set(hash, { identity, expiresAt: now + CACHE_TTL_MS, tokenExpiresAt });
    if (identity && tokenExpiresAt !== null && tokenExpiresAt <= now) return null;
    if (identity) this.#touch(identity.tokenId, now);
    return identity;
  }

  /**
   * The identity of a reporter key (`X-Reporter-Key`), or null when no reporter has it. Not
   * cached: a rotated key stops working at once, on every replica. The reporter acts under its
   * owner's user budget (spec 5.6).
   */
  async authenticateReporterKey(key: string): Promise<AuthenticatedIdentity | null> {
    const row = await this.#db
      .selectFrom("reporters")
      .innerJoin("users", "users.id", "reporters.user_id")
      .select(["reporters.id as reporter_id", "reporters.user_id", "users.email"])
      .where("reporters.key_hash", "=", hashToken(key))
      .executeTakeFirst();
    if (!row) return null;
    return {
      kind: "reporter",
      subjectId: row.reporter_id,
      userId: row.user_id,
      email: row.email,
      isAdmin: false,
      scopes: ["reporter"],
      tokenId: row.reporter_id,
      budget: { key: row.user_id, kind: "user" },
    };
  }

  /** Forget cached lookups (after a revocation). */
  forget(): void {
    this.#cache.clear();
  }

  #touch(tokenId: string, now: number): void {
    const last = this.#lastUsedWrites.get(tokenId) ?? 0;
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    if (this.#lastUsedWrites.size >= CACHE_MAX) this.#lastUsedWrites.clear();
    this.#lastUsedWrites.set(tokenId, now);
    // Best effort: a failed bookkeeping write must not fail the request.
    this.#db
      .updateTable("tokens")
      .set({ last_used_at: new Date(now).toISOString() })
      .where("id", "=", tokenId)
      .execute()
      .catch(() => undefined);
  }
}
