// The work queue's time settings: how long a lease lasts and how long a live game waits for its
// people, each from the environment when set (read per call, so tests can shorten them).

export const LEASE_SECONDS = 30;

/**
 * A whole number of seconds from 1 to `max` in the environment variable `name`, else `fallback`
 * when it is unset or blank. Read per call, so tests can shorten it.
 */
function secondsFromEnv(
  env: Record<string, string | undefined>,
  name: string,
  max: number,
  fallback: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(
      `${name} must be a whole number of seconds from 1 to ${max}, got ${JSON.stringify(raw)}`,
    );
  return value;
}

/** The lease length: GAUNTLET_LEASE_SECONDS (1 to 3600) when set, else LEASE_SECONDS. Read per call, so tests can shorten it. */
export function leaseSeconds(env: Record<string, string | undefined> = process.env): number {
  return secondsFromEnv(env, "GAUNTLET_LEASE_SECONDS", 3600, LEASE_SECONDS);
}

export const JOIN_TIMEOUT_SECONDS = 120;

/** How long a live game waits for its people: GAUNTLET_PLAY_JOIN_TIMEOUT_SECONDS (1 to 86400), else 120. Read per call, so tests can shorten it. */
export function joinTimeoutSeconds(env: Record<string, string | undefined> = process.env): number {
  return secondsFromEnv(env, "GAUNTLET_PLAY_JOIN_TIMEOUT_SECONDS", 86_400, JOIN_TIMEOUT_SECONDS);
}
