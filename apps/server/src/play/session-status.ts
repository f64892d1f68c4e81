// The statuses a play session ends in (an episode ends in the same ones).
export const FINAL = ["completed", "failed", "cancelled"] as const;

/** A status both an episode and a session end in. */
export const isFinal = (status: string): status is (typeof FINAL)[number] =>
  (FINAL as readonly string[]).includes(status);
