// Sign-in resists guessing: each account and each client address has a free allowance of wrong
// passwords, then a lock that doubles with every further failure (up to 15 minutes), shared by
// every replica when Redis is configured. A locked sign-in is refused before the password is
// hashed, so a burst costs no thread-pool time; even the right password waits out the lock.
// The form also refuses a post from another site's page (a foreign or opaque `Origin`).
import { createHash } from "node:crypto";

import type { FastifyRequest } from "fastify";

import type { AttemptPolicy, AttemptStore } from "../limiter/attempts.ts";
import { forbidden, ServiceError } from "../shared/errors.ts";

const QUARTER_HOUR_MS = 15 * 60_000;
export const ACCOUNT_POLICY: AttemptPolicy = {
  free: 5,
  baseLockMs: 1_000,
  maxLockMs: QUARTER_HOUR_MS,
  windowMs: QUARTER_HOUR_MS,
};
/** An address (a shared NAT, an office) gets a larger allowance than one account. */
export const ADDRESS_POLICY: AttemptPolicy = { ...ACCOUNT_POLICY, free: 20 };

export const SIGN_IN_THROTTLED = "sign_in_throttled";
/** Where a throttled sign-in's 429 points (the page on limits). */
export const SIGN_IN_DOCS_PATH = "/docs/rate-limits";

/** Accounts are keyed by a hash of the address, so Redis holds no email. */
const accountKey = (email: string) =>
  `signin:account:${createHash("sha256").update(email.trim().toLowerCase()).digest("base64url")}`;
const addressKey = (address: string) => `signin:address:${address}`;

export class SignInGuard {
  readonly #store: AttemptStore;

  constructor(store: AttemptStore) {
    this.#store = store;
  }

  /**
   * Admits one sign-in attempt, counted in advance against the account and the address (so
   * that concurrent guesses cannot all slip in under the allowance); throws the 429 (docs/api.md
   * shape, with Retry-After) while either is locked. A right password takes the count back.
   */
  async admit(
    email: string,
    address: string,
    documentationUrl: string,
    setRetryAfter: (seconds: number) => void,
  ): Promise<void> {
    const account = await this.#store.attempt(accountKey(email), ACCOUNT_POLICY);
    const fromAddress =
      account > 0 ? 0 : await this.#store.attempt(addressKey(address), ADDRESS_POLICY);
    // An attempt the address refused was counted against the account: take it back.
    if (fromAddress > 0) await this.#store.forgive(accountKey(email));
    const waitMs = Math.max(account, fromAddress);
    if (waitMs <= 0) return;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    setRetryAfter(seconds);
    throw new ServiceError(
      429,
      SIGN_IN_THROTTLED,
      `Too many wrong passwords ${account > 0 ? "for this account" : "from this address"}; try again in ${seconds} s.`,
      { retry_after_seconds: seconds, documentation_url: documentationUrl },
    );
  }

  /** A right password forgets the account's failures and takes back the address's attempt. */
  async succeeded(email: string, address: string): Promise<void> {
    await Promise.all([
      this.#store.clear(accountKey(email)),
      this.#store.forgive(addressKey(address)),
    ]);
  }
}

/**
 * Refuses a form post from another site's page: a browser names the page's origin in `Origin`
 * (`null` for a sandboxed or opaque one, such as a play module). The form's own page is this
 * service's, at its public address or at the address the browser used. A request without
 * `Origin` (a program, not a page) passes unless the browser says it is cross-site.
 */
export function assertOwnOrigin(request: FastifyRequest, publicBase: string): void {
  const origin = request.headers.origin;
  if (origin === undefined) {
    if (request.headers["sec-fetch-site"] === "cross-site")
      throw forbidden("Sign-in takes posts only from this service's own pages.");
    return;
  }
  // Our pages send no referrer, so a browser posts their form with `Origin: null`; it still
  // tells its own page's posts apart (Sec-Fetch-Site cannot be set by a page). A sandboxed,
  // opaque-origin page — a coworld's — posts as cross-site and stays refused.
  if (origin === "null" && request.headers["sec-fetch-site"] === "same-origin") return;
  const own = new Set([new URL(publicBase).origin]);
  const host = request.headers.host;
  if (host) own.add(`${request.protocol}://${host.toLowerCase()}`);
  if (!own.has(origin.toLowerCase()))
    throw forbidden(`Sign-in takes posts only from this service's own pages, not from ${origin}.`);
}
