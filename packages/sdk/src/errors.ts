// The errors the SDK throws (modelled on openai-node). Every class carries a brand under
// `Symbol.for(...)`, so the guards and `instanceof` work even when two copies of the
// package are loaded (a CLI and a plugin each bundling their own). Each class's `name`
// is a literal type, so that a guard's `else` branch still narrows (the classes would
// otherwise be structurally identical).
import {
  isSharedBudgetRejection,
  readBudgetSnapshot,
  ValidationErrorBody,
  type BudgetSnapshot,
  type ValidationErrorItem,
} from "@gauntlet/core";

const BRAND = Symbol.for("@gauntlet/sdk.error");

type Kind =
  | "GauntletError"
  | "GauntletConfigError"
  | "APIError"
  | "BadRequestError"
  | "AuthenticationError"
  | "PermissionDeniedError"
  | "NotFoundError"
  | "ConflictError"
  | "UnprocessableEntityError"
  | "RateLimitError"
  | "InternalServerError"
  | "APIConnectionError"
  | "APITimeoutError"
  | "APIUserAbortError"
  | "ResponseValidationError"
  | "LiveEventsError";

function kindsOf(value: unknown): readonly string[] {
  if (typeof value !== "object" || value === null) return [];
  const kinds = (value as { [BRAND]?: unknown })[BRAND];
  return Array.isArray(kinds) ? kinds.filter((k): k is string => typeof k === "string") : [];
}

function hasKind(value: unknown, kind: Kind): boolean {
  return kindsOf(value).includes(kind);
}

/** Base of every error the SDK throws. */
export class GauntletError extends Error {
  static readonly kind: Kind = "GauntletError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Each instance records its whole lineage, read by the guards across package copies.
    const kinds: Kind[] = [];
    for (
      let ctor: unknown = new.target;
      typeof ctor === "function" && "kind" in ctor;
      ctor = Object.getPrototypeOf(ctor)
    ) {
      if (!kinds.includes(ctor.kind as Kind)) kinds.push(ctor.kind as Kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
    this.name = new.target.kind;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.kind);
  }
}

/** No server configured, an invalid server URL, an unreadable credentials file, bad input. */
export class GauntletConfigError extends GauntletError {
  static override readonly kind: Kind = "GauntletConfigError";
  declare readonly name: "GauntletConfigError";
}

export interface APIErrorInit {
  status: number;
  headers: Headers;
  body: unknown;
  operationId: string;
}

function detailOf(body: unknown): { type?: string; message?: string } {
  if (typeof body !== "object" || body === null || !("detail" in body)) return {};
  const detail = body.detail;
  if (typeof detail !== "object" || detail === null || Array.isArray(detail)) return {};
  const out: { type?: string; message?: string } = {};
  if ("type" in detail && typeof detail.type === "string") out.type = detail.type;
  if ("message" in detail && typeof detail.message === "string") out.message = detail.message;
  return out;
}

/** The server answered with a status outside 2xx. */
export class APIError extends GauntletError {
  static override readonly kind: Kind = "APIError";
  readonly status: number;
  readonly headers: Headers;
  /** The response body: parsed JSON, else its text, else undefined. */
  readonly body: unknown;
  /** `x-request-id` of the response, to quote when reporting a problem. */
  readonly requestId: string | null;
  /**
   * `detail.type` of the body (the stable discriminator, docs/api.md "Conventions"), when present.
   */
  readonly errorType: string | null;
  readonly operationId: string;

  constructor(init: APIErrorInit, message?: string) {
    const detail = detailOf(init.body);
    super(
      message ??
        `${init.status} ${detail.type ?? "error"}${detail.message ? `: ${detail.message}` : ""} (${init.operationId})`,
    );
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.requestId = init.headers.get("x-request-id");
    this.errorType = detail.type ?? null;
    this.operationId = init.operationId;
  }
}

export class BadRequestError extends APIError {
  static override readonly kind: Kind = "BadRequestError";
  declare readonly name: "BadRequestError";
}
export class AuthenticationError extends APIError {
  static override readonly kind: Kind = "AuthenticationError";
  declare readonly name: "AuthenticationError";
}
export class PermissionDeniedError extends APIError {
  static override readonly kind: Kind = "PermissionDeniedError";
  declare readonly name: "PermissionDeniedError";
}
export class NotFoundError extends APIError {
  static override readonly kind: Kind = "NotFoundError";
  declare readonly name: "NotFoundError";
}
export class ConflictError extends APIError {
  static override readonly kind: Kind = "ConflictError";
  declare readonly name: "ConflictError";
}

function locText(item: ValidationErrorItem): string {
  return item.loc.map(String).join(".");
}

/** 422: the request did not match the contract; `errors` are the items of docs/api.md. */
export class UnprocessableEntityError extends APIError {
  static override readonly kind: Kind = "UnprocessableEntityError";
  declare readonly name: "UnprocessableEntityError";
  readonly errors: readonly ValidationErrorItem[];

  constructor(init: APIErrorInit) {
    const parsed = ValidationErrorBody.safeParse(init.body);
    const errors = parsed.success ? parsed.data.detail : [];
    const first = errors[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
    super(
      init,
      first
        ? `422 validation error at ${locText(first)}: ${first.msg}${more} (${init.operationId})`
        : undefined,
    );
    this.errors = errors;
  }
}

function parseRetryAfter(headers: Headers, body: unknown): number | null {
  const header = headers.get("retry-after");
  if (header !== null && header.trim() !== "") {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  if (typeof body === "object" && body !== null && "detail" in body) {
    const detail = body.detail;
    if (
      typeof detail === "object" &&
      detail !== null &&
      "retry_after_seconds" in detail &&
      typeof detail.retry_after_seconds === "number"
    ) {
      return detail.retry_after_seconds;
    }
  }
  return null;
}

/** 429: a shared budget or another protection refused the request. */
export class RateLimitError extends APIError {
  static override readonly kind: Kind = "RateLimitError";
  declare readonly name: "RateLimitError";
  /** Seconds to wait before retrying (Retry-After, else the body's `retry_after_seconds`). */
  readonly retryAfterSeconds: number | null;
  /** The four buckets as the server reported them with this rejection. */
  readonly budget: BudgetSnapshot | null;
  /** True for the shared-budget rejection (`detail.type` `api_rate_limit_exceeded`). */
  readonly sharedBudget: boolean;

  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfterSeconds = parseRetryAfter(init.headers, init.body);
    this.budget = readBudgetSnapshot(init.headers);
    this.sharedBudget = isSharedBudgetRejection(init.body);
  }
}

/** 5xx. */
export class InternalServerError extends APIError {
  static override readonly kind: Kind = "InternalServerError";
  declare readonly name: "InternalServerError";
}

/** No response: refused connection, DNS failure, reset. */
export class APIConnectionError extends GauntletError {
  static override readonly kind: Kind = "APIConnectionError";
  declare readonly name: "APIConnectionError" | "APITimeoutError";
}

/** No response within the timeout of one attempt. */
export class APITimeoutError extends APIConnectionError {
  static override readonly kind: Kind = "APITimeoutError";
  declare readonly name: "APITimeoutError";
}

/** The caller's AbortSignal ended the request. Never retried. */
export class APIUserAbortError extends GauntletError {
  static override readonly kind: Kind = "APIUserAbortError";
  declare readonly name: "APIUserAbortError";
}

export interface OffContractIssue {
  /** Where in the response, e.g. `[0].league.created_at`. */
  path: string;
  message: string;
}

/** A 2xx response that does not match the operation's response schema. */
export class ResponseValidationError extends GauntletError {
  static override readonly kind: Kind = "ResponseValidationError";
  declare readonly name: "ResponseValidationError";
  readonly operationId: string;
  readonly status: number;
  readonly issues: readonly OffContractIssue[];
  /** The first wrong field, e.g. `[0].league.created_at`. */
  readonly path: string;
  readonly body: unknown;
  readonly requestId: string | null;

  constructor(init: {
    operationId: string;
    status: number;
    headers: Headers;
    body: unknown;
    issues: readonly OffContractIssue[];
  }) {
    const first = init.issues[0] ?? { path: "(root)", message: "invalid" };
    const more = init.issues.length > 1 ? ` (and ${init.issues.length - 1} more)` : "";
    super(
      `${init.operationId}: response is off the contract at ${first.path}: ${first.message}${more}`,
    );
    this.operationId = init.operationId;
    this.status = init.status;
    this.issues = init.issues;
    this.path = first.path;
    this.body = init.body;
    this.requestId = init.headers.get("x-request-id");
  }
}

/** Live events: a refused connection, a server notice, a message off the protocol. */
export class LiveEventsError extends GauntletError {
  static override readonly kind: Kind = "LiveEventsError";
  declare readonly name: "LiveEventsError";
  /** The WebSocket close code when the server ended the connection. */
  readonly closeCode: number | null;
  constructor(message: string, closeCode: number | null = null) {
    super(message);
    this.closeCode = closeCode;
  }
}

/** Builds the error class that matches a non-2xx status. */
export function errorFromResponse(init: APIErrorInit): APIError {
  switch (init.status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new UnprocessableEntityError(init);
    case 429:
      return new RateLimitError(init);
    default:
      return init.status >= 500 ? new InternalServerError(init) : new APIError(init);
  }
}

// Guards: brand checks, so they hold across copies of the package.
export const isGauntletError = (e: unknown): e is GauntletError => hasKind(e, "GauntletError");
export const isGauntletConfigError = (e: unknown): e is GauntletConfigError =>
  hasKind(e, "GauntletConfigError");
export const isAPIError = (e: unknown): e is APIError => hasKind(e, "APIError");
export const isBadRequestError = (e: unknown): e is BadRequestError =>
  hasKind(e, "BadRequestError");
export const isAuthenticationError = (e: unknown): e is AuthenticationError =>
  hasKind(e, "AuthenticationError");
export const isPermissionDeniedError = (e: unknown): e is PermissionDeniedError =>
  hasKind(e, "PermissionDeniedError");
export const isNotFoundError = (e: unknown): e is NotFoundError => hasKind(e, "NotFoundError");
export const isConflictError = (e: unknown): e is ConflictError => hasKind(e, "ConflictError");
export const isUnprocessableEntityError = (e: unknown): e is UnprocessableEntityError =>
  hasKind(e, "UnprocessableEntityError");
export const isRateLimitError = (e: unknown): e is RateLimitError => hasKind(e, "RateLimitError");
export const isInternalServerError = (e: unknown): e is InternalServerError =>
  hasKind(e, "InternalServerError");
export const isAPIConnectionError = (e: unknown): e is APIConnectionError =>
  hasKind(e, "APIConnectionError");
export const isAPITimeoutError = (e: unknown): e is APITimeoutError =>
  hasKind(e, "APITimeoutError");
export const isAPIUserAbortError = (e: unknown): e is APIUserAbortError =>
  hasKind(e, "APIUserAbortError");
export const isLiveEventsError = (e: unknown): e is LiveEventsError =>
  hasKind(e, "LiveEventsError");
export const isResponseValidationError = (e: unknown): e is ResponseValidationError =>
  hasKind(e, "ResponseValidationError");
