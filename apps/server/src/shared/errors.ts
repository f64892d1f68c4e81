// Errors a domain service throws; the HTTP layer turns them into the error bodies of docs/api.md
// ("Conventions").
import type { ValidationErrorItem } from "@gauntlet/core";

export class ServiceError extends Error {
  readonly status: number;
  readonly type: string;
  readonly extra: Record<string, unknown>;

  constructor(status: number, type: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.type = type;
    this.extra = extra;
  }
}

export const unauthorized = (message = "A valid bearer token is required.") =>
  new ServiceError(401, "unauthorized", message);
export const forbidden = (message: string) => new ServiceError(403, "forbidden", message);
export const notFound = (what: string, id?: string) =>
  new ServiceError(
    404,
    "not_found",
    id ? `${what} ${id} was not found.` : `${what} was not found.`,
  );
/**
 * A lookup whose 404 the caller words its own way (the round's 404 for its hidden division, a
 * 422 for an unknown id in a body); any other failure — a query that failed — passes unchanged
 * instead of reading as "not found".
 */
export async function ifNotFound<T>(lookup: Promise<T>, instead: () => Error): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) throw instead();
    throw error;
  }
}
export const badRequest = (message: string) => new ServiceError(400, "bad_request", message);
export const gone = (message: string) => new ServiceError(410, "gone", message);
/** The retention policy removed an episode's stored files (replay, logs, artifacts). */
export const artifactsExpired = (episodeId: string) =>
  new ServiceError(
    410,
    "artifacts_expired",
    `The files of episode request ${episodeId} (replay, logs, artifacts) were removed by the server's retention policy; its results and scores are kept.`,
  );
export const conflict = (message: string, type = "conflict", extra: Record<string, unknown> = {}) =>
  new ServiceError(409, type, message, extra);

/** The blob store's disk is full: nothing was stored, and what was stored before is untouched. */
export const insufficientStorage = () =>
  new ServiceError(
    507,
    "insufficient_storage",
    "The server's blob storage is full; nothing was stored. Retry once space has been freed.",
  );

/** A 422 raised by a service after schema validation passed (e.g. a referenced id is unknown). */
export class InputError extends Error {
  readonly items: ValidationErrorItem[];

  constructor(items: ValidationErrorItem[]) {
    super(items.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; "));
    this.items = items;
  }
}

export const invalidInput = (
  loc: (string | number)[],
  msg: string,
  type = "value_error",
  input?: unknown,
) => new InputError([{ loc, msg, type, ...(input === undefined ? {} : { input }) }]);
