// Failed attempts with backoff, per subject (an account, an address): each failure past a free
// allowance locks the subject for twice as long as the last one, up to a ceiling; the count
// forgets after a quiet window. In memory for one process, in Redis (attempts-redis.ts) when
// replicas must share it. Used by sign-in (identity/sign-in-guard.ts).

export interface AttemptPolicy {
  /** Failures allowed before the first lock. */
  free: number;
  /** The first lock; each further failure doubles it. */
  baseLockMs: number;
  maxLockMs: number;
  /** The count is forgotten this long after the last failure. */
  windowMs: number;
}

export interface AttemptStore {
  /**
   * One atomic step: while the subject is locked, answers the milliseconds left (the attempt is
   * refused and not counted); otherwise counts the attempt as a failure in advance (so that
   * concurrent attempts cannot all slip in under the allowance), sets the lock the count earns,
   * and answers 0. A success takes the count back with `clear` or `forgive`.
   */
  attempt(key: string, policy: AttemptPolicy): Promise<number>;
  /** Takes back one counted attempt (a success from a shared address). */
  forgive(key: string): Promise<void>;
  /** Forgets the subject's failures and lock (a success for an account). */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The lock after the n-th failure in a row (1-based). */
export function lockAfter(failures: number, policy: AttemptPolicy): number {
  if (failures <= policy.free) return 0;
  return Math.min(policy.baseLockMs * 2 ** (failures - policy.free - 1), policy.maxLockMs);
}

interface Entry {
  failures: number;
  forgetAt: number;
  lockedUntil: number;
}

const MAX_ENTRIES = 100_000;

export class MemoryAttemptStore implements AttemptStore {
  readonly #entries = new Map<string, Entry>();
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  async attempt(key: string, policy: AttemptPolicy): Promise<number> {
    const now = this.#clock();
    const entry = this.#live(key) ?? { failures: 0, forgetAt: 0, lockedUntil: 0 };
    if (entry.lockedUntil > now) return entry.lockedUntil - now;
    entry.failures += 1;
    const lock = lockAfter(entry.failures, policy);
    if (lock) entry.lockedUntil = now + lock;
    entry.forgetAt = Math.max(now + policy.windowMs, entry.lockedUntil);
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) {
      // The longest-quiet subject goes first (a Map iterates in insertion order).
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, entry);
    return 0;
  }

  async forgive(key: string): Promise<void> {
    const entry = this.#live(key);
    if (entry && entry.failures > 0) entry.failures -= 1;
  }

  async clear(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.forgetAt <= this.#clock()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
