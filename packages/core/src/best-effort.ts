// Promises whose failure is dropped on purpose. Each caller picks the helper that says why, so a
// bare `.catch(() => undefined)` (which says nothing and hides the unexpected) is refused by lint.

/**
 * Cleanup and bookkeeping: a failure leaves nothing to do (what is closed or removed may already
 * be gone, and the caller is on its way out or has a request to answer). Never rejects.
 */
export async function bestEffort(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch {
    // Nothing to do about it: see above.
  }
}

/**
 * Waits for work whose failure its owner reports (whoever awaits it, or an `onError` hook): here
 * it only needs to be over. Never rejects.
 */
export async function settled(work: Promise<unknown>): Promise<void> {
  await Promise.allSettled([work]);
}

const GONE = new Set(["ENOENT", "ENOTDIR", "ESRCH"]);

/**
 * A file or process read that may find its target already removed (a sweep racing a delete):
 * null when it is gone; any other failure (permissions, I/O) still rejects.
 */
export async function unlessGone<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (typeof code === "string" && GONE.has(code)) return null;
    throw error;
  }
}
