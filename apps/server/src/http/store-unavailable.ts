// Recognises the errors of a database that is down or restarting (PostgreSQL refused, reset,
// shutting down; SQLite busy), so a request answers 503 with Retry-After instead of 500.

export const STORE_RETRY_AFTER_SECONDS = 5;

// PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-57P03 (shutdown, crash, starting).
const PG_CODES = /^(08\d{3}|57P0[1-3])$/;
const NODE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
]);
const PG_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

export function isStoreUnavailable(error: unknown, seen = 0): boolean {
  if (!(error instanceof Error) || seen > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (PG_CODES.test(code) || NODE_CODES.has(code))) return true;
  if (PG_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  if (
    error instanceof AggregateError &&
    error.errors.some((inner) => isStoreUnavailable(inner, seen + 1))
  )
    return true;
  return error.cause !== undefined && isStoreUnavailable(error.cause, seen + 1);
}

/**
 * A transaction PostgreSQL aborted for a concurrent one (40001 serialization failure, 40P01
 * deadlock): nothing was written, and the same request a moment later goes through.
 */
export function isStoreConflict(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return code === "40001" || code === "40P01";
}
