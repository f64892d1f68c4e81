// Bearer token → identity. A hot token costs neither a query nor a hash per request: lookups are
// kept in a bounded cache keyed by the token itself. A revocation drops the token's entries at
// once on every replica (revoke() tells them through the signal channel — Redis when configured —
// before it settles); entries also expire after CACHE_TTL_MS. The cache is trusted only while the
// signal channel says this replica hears every signal (trustEpoch): while Redis is down every
// request looks its token up, and the cache is emptied whenever signals may have been missed.
import type { Kysely } from "kysely";

import { bestEffort } from "@gauntlet/core";

import type { Database } from "../store/schema.ts";
import type { AuthenticatedIdentity } from "./identity.ts";
import { hashToken } from "./secrets.ts";

const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

interface CacheEntry {
  identity: AuthenticatedIdentity | null;
  expiresAt: number;
  tokenExpiresAt: number | null;
}

/** What was revoked: tokens by id, or every token of some players (their credentials). */
export interface Revocation {
  tokenIds?: readonly string[];
  playerIds?: readonly string[];
}

/** True when the identity's token is one the revocation names. */
export function isRevoked(identity: AuthenticatedIdentity, revocation: Revocation): boolean {
  return (
    (revocation.tokenIds?.includes(identity.tokenId) ?? false) ||
    (identity.kind === "player" && (revocation.playerIds?.includes(identity.subjectId) ?? false))
  );
}

function isRevocation(value: unknown): value is Revocation {
  if (typeof value !== "object" || value === null) return false;
  const ids = (list: unknown) =>
    list === undefined || (Array.isArray(list) && list.every((id) => typeof id === "string"));
  return "tokenIds" in value
    ? ids(value.tokenIds) && (!("playerIds" in value) || ids(value.playerIds))
    : "playerIds" in value && ids(value.playerIds);
}

/**
 * The replicas' signal channel as the token cache uses it. The live-events layer's channel
 * (events/signals.ts) is one, handed over by the composition root; auth sits below that layer.
 */
export interface RevocationSignals {
  publish(message: unknown): Promise<void>;
  subscribe(listener: (message: unknown) => void): () => void;
  trustEpoch(now?: number): number | undefined;
}

export class Authenticator {
  readonly #db: Kysely<Database>;
  readonly #signals: RevocationSignals | undefined;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #lastUsedWrites = new Map<string, number>();
  readonly #unsubscribe: () => void;
  readonly #revocationListeners = new Set<(revocation: Revocation) => void>();
  /** The signal channel's trustEpoch the cache was filled under. */
  #epoch: number | undefined = 0;
  /** Revocations heard, so that a lookup overtaken by one is not cached. */
  #drops = 0;

  constructor(db: Kysely<Database>, signals?: RevocationSignals) {
    this.#db = db;
    this.#signals = signals;
    this.#unsubscribe =
      signals?.subscribe((message) => {
        if (isRevocation(message)) this.#drop(message);
      }) ?? (() => undefined);
  }

  /**
   * The identity of a token from this replica's cache, without a query or a promise: null when it
   * is known to be unknown, revoked or expired, undefined when the cache cannot say (ask authenticate).
   */
  cachedIdentity(token: string, now = Date.now()): AuthenticatedIdentity | null | undefined {
    if (!this.#cacheTrusted(now)) return undefined;
    const cached = this.#cache.get(token);
    if (!cached || cached.expiresAt <= now) return undefined;
    if (cached.tokenExpiresAt !== null && cached.tokenExpiresAt <= now) return null;
    return cached.identity;
  }

  /** The identity of a token, or null when it is unknown, revoked or expired. */
  async authenticate(token: string, now = Date.now()): Promise<AuthenticatedIdentity | null> {
    const cached = this.cachedIdentity(token, now);
    if (cached !== undefined) return cached;
    const epochBefore = this.#epoch;
    const dropsBefore = this.#drops;
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
      .where("tokens.token_hash", "=", hashToken(token))
      .executeTakeFirst();
    let identity: AuthenticatedIdentity | null = null;
    let tokenExpiresAt: number | null = null;
    if (row && row.revoked_at === null) {
      tokenExpiresAt = row.expires_at ? Date.parse(row.expires_at) : null;
      const isAdmin = row.is_admin === 1 && row.kind === "user";
      const base = { userId: row.user_id, email: row.email, tokenId: row.token_id };
      if (row.kind === "machine" && row.machine_id) {
        identity = {
          ...base,
          kind: "machine",
          subjectId: row.machine_id,
          adminRole: false,
          elevated: false,
          scopes: ["runner"],
          budget: { key: row.machine_id, kind: "machine" },
        };
      } else if (row.kind === "player" && row.player_id) {
        identity = {
          ...base,
          kind: "player",
          subjectId: row.player_id,
          adminRole: false,
          elevated: false,
          scopes: ["player"],
          budget: { key: row.user_id, kind: "user" },
        };
      } else if (row.kind === "user") {
        identity = {
          ...base,
          kind: "user",
          subjectId: row.user_id,
          adminRole: isAdmin,
          // Elevated per request by the gate, when the request asks (access/admin.ts).
          elevated: false,
          scopes: isAdmin ? ["user", "admin"] : ["user"],
          budget: { key: row.user_id, kind: "user" },
        };
      }
    }
    this.#cache.delete(token);
    // Kept only when nothing may have changed it meanwhile: no revocation heard during the
    // lookup, and the channel trusted (and not reconnected) since before it.
    if (this.#cacheTrusted(now) && this.#epoch === epochBefore && this.#drops === dropsBefore) {
      if (this.#cache.size >= CACHE_MAX) {
        // The oldest lookup goes first (a Map iterates in insertion order).
        const oldest = this.#cache.keys().next();
        if (!oldest.done) this.#cache.delete(oldest.value);
      }
      this.#cache.set(token, { identity, expiresAt: now + CACHE_TTL_MS, tokenExpiresAt });
    }
    if (identity && tokenExpiresAt !== null && tokenExpiresAt <= now) return null;
    if (identity) this.#touch(identity.tokenId, now);
    return identity;
  }

  /**
   * The identity of a reporter key (`X-Reporter-Key`), or null when no reporter has it. Not
   * cached: a rotated key stops working at once, on every replica. The reporter acts under its
   * owner's user budget.
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
      adminRole: false,
      elevated: false,
      scopes: ["reporter"],
      tokenId: row.reporter_id,
      budget: { key: row.user_id, kind: "user" },
    };
  }

  /** How many lookups are cached (tests: the cache stays bounded). */
  get cached(): number {
    return this.#cache.size;
  }

  /**
   * Drops revoked tokens from this replica's cache at once and tells every other replica; settles
   * once they have been told (or the signal channel gave up), so the revoking request answers after.
   */
  async revoke(revocation: Revocation): Promise<void> {
    this.#drop(revocation);
    await this.#signals?.publish(revocation);
  }

  close(): void {
    this.#unsubscribe();
    this.#revocationListeners.clear();
  }

  /**
   * Told of every revocation this replica hears, its own and other replicas' (over the signal
   * channel): the live-events layer closes the revoked tokens' open sockets with it.
   */
  onRevocation(listener: (revocation: Revocation) => void): () => void {
    this.#revocationListeners.add(listener);
    return () => this.#revocationListeners.delete(listener);
  }

  /** Whether the cache may be used now; empties it when signals may have been missed. */
  #cacheTrusted(now: number): boolean {
    const epoch = this.#signals ? this.#signals.trustEpoch(now) : 0;
    if (epoch !== this.#epoch) {
      this.#cache.clear();
      this.#epoch = epoch;
    }
    return epoch !== undefined;
  }

  #drop(revocation: Revocation): void {
    this.#drops += 1;
    for (const listener of this.#revocationListeners) listener(revocation);
    const tokens = new Set(revocation.tokenIds ?? []);
    const players = new Set(revocation.playerIds ?? []);
    for (const [token, entry] of this.#cache) {
      const identity = entry.identity;
      if (
        identity &&
        (tokens.has(identity.tokenId) ||
          (identity.kind === "player" && players.has(identity.subjectId)))
      )
        this.#cache.delete(token);
    }
  }

  #touch(tokenId: string, now: number): void {
    const last = this.#lastUsedWrites.get(tokenId) ?? 0;
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    if (this.#lastUsedWrites.size >= CACHE_MAX) this.#lastUsedWrites.clear();
    this.#lastUsedWrites.set(tokenId, now);
    // Best effort: a failed bookkeeping write must not fail the request.
    void bestEffort(
      this.#db
        .updateTable("tokens")
        .set({ last_used_at: new Date(now).toISOString() })
        .where("id", "=", tokenId)
        .execute(),
    );
  }
}
