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
  /** Milliseconds until the subject may try again; 0 when it may now. */
  lockedFor(key: string): Promise<number>;
  /** Counts a failure; answers the lock it started (0 for none). */
  fail(key: string, policy: AttemptPolicy): Promise<number>;
  /** Forgets the subject's failures (a success). */
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

  async lockedFor(key: string): Promise<number> {
    const entry = this.#live(key);
    return entry ? Math.max(0, entry.lockedUntil - this.#clock()) : 0;
  }

  async fail(key: string, policy: AttemptPolicy): Promise<number> {
    const now = this.#clock();
    const entry = this.#live(key) ?? { failures: 0, forgetAt: 0, lockedUntil: 0 };
    entry.failures += 1;
    const lock = lockAfter(entry.failures, policy);
    entry.lockedUntil = lock ? now + lock : entry.lockedUntil;
    entry.forgetAt = Math.max(now + policy.windowMs, entry.lockedUntil);
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) {
      // The longest-quiet subject goes first (a Map iterates in insertion order).
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, entry);
    return lock;
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
