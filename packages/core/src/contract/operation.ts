// One operation of the API contract (docs/architecture.md, "One contract").
// The server registers a handler per operation, the OpenAPI document and the SDK derive
// from the same entries, so a field is written once.
import type { z } from "zod";

/** The body of an operation without authentication (a sign-in form, a code exchange): small,
 * since it is read and parsed before any budget is drawn. */
export const MAX_FORM_BODY_BYTES = 64 * 1024;
export const tags = [
  "Players",
  "Policies",
  "Container Images",
  "Coworlds",
  "Leagues",
  "Lobbies",
  "Experience Requests",
  "Episodes",
  "Rounds",
  "Tournaments",
  "Reporters",
  "Play Modules",
  "Posts",
  "Wikis",
] as const;

/** The API's groups (tags), plus the ones Gauntlet adds for its own surfaces. */
export const extraTags = ["Identity", "Service", "Runners", "Events"] as const;
export type Tag = (typeof tags)[number] | (typeof extraTags)[number];

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * `none`: no token is read (and the request is never budgeted).
 * `optional`: a token, when given, must be valid (401 otherwise) and is budgeted.
 * `required`: a valid token is needed (401 otherwise).
 */
export type AuthMode = "none" | "optional" | "required";

/**
 * Who may call an operation; the authorization matrix checks every subject against it.
 * - `public`: anyone, with or without a token.
 * - `signed_in`: any valid token (401 without one).
 * - `user`: a person's token; a machine (runner) token is refused with 403.
 * - `owner`: signed in, and the object named in the path is answered only to its owner (or
 *   its league's commissioner, or an admin); to anyone else it is 404 (a private object) or 403.
 * - `admin`: admins only (403 to every other signed-in subject).
 * - `runner`: machine (runner) tokens only (403 to a person's token, an admin's too).
 * - `credential`: anyone; the body carries its own credential, so a wrong one is 401.
 * When absent, `accessOf` derives it from `auth`: `required` → `signed_in`, else `public`.
 */
export type Access = "public" | "signed_in" | "user" | "owner" | "admin" | "runner" | "credential";

/**
 * The header with which an admin asks for its admin powers on one request (`true`); without it
 * an admin is an ordinary user (docs/api.md, "Elevated privileges").
 */
export const ELEVATION_HEADER = "X-Use-Elevated-Privileges";

/** The header that carries a job lease's secret (`lease_token` of a leased job). */
export const LEASE_TOKEN_HEADER = "X-Lease-Token";

export type ResponseKind = "json" | "html" | "text" | "javascript" | "bytes";

export interface OperationDef {
  readonly id: string;
  readonly method: HttpMethod;
  /** OpenAPI-style path relative to a base address, e.g. `/v2/leagues/{league_id}`. */
  readonly path: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly description?: string;
  readonly auth: AuthMode;
  /** The fixed complexity of this operation. */
  readonly complexity: number;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Whether a body may be omitted (treated as `undefined` before validation). */
  readonly bodyOptional?: boolean;
  /** Content type of a raw request body; JSON when absent. */
  readonly bodyContentType?: "application/octet-stream" | "application/x-www-form-urlencoded";
  /**
   * The raw body is taken whatever its media type (application/octet-stream, text/html, JSON…),
   * as bytes; the handler reads the type from the request. For uploads whose type is their own.
   */
  readonly bodyAnyMediaType?: boolean;
  /** A request body limit other than the server's default: larger for uploads of files, smaller
   * for the forms that take a body before any authentication or budget (MAX_FORM_BODY_BYTES). */
  readonly maxBodyBytes?: number;
  readonly status: 200 | 201 | 204 | 302;
  readonly response: z.ZodType;
  readonly responseKind?: ResponseKind;
  /**
   * Statuses besides `status` answered with the page itself (an HTML form shows its own result:
   * the sign-in form shows a code to paste with 200, and itself again with 401 on a wrong
   * password).
   */
  readonly pageStatuses?: readonly number[];
  /** Creates something: accepts `Idempotency-Key` (docs/api.md, "Conventions"). */
  readonly idempotent?: boolean;
  /** A missing or invalid token answers as anonymous instead of 401. */
  readonly invalidTokenIsAnonymous?: boolean;
  /**
   * The request authenticates with this header instead of a bearer token (a reporter's key);
   * the subject then acts under its owner's identity for the budgets.
   */
  readonly credentialHeader?: "X-Reporter-Key";
  /**
   * The request must also carry the per-lease secret its job's lease answered with, in this
   * header (the runner work queue: heartbeats, artifacts, completion and failure).
   */
  readonly leaseTokenHeader?: typeof LEASE_TOKEN_HEADER;
  /** Excluded from the shared budgets even when authenticated. */
  readonly budgetExempt?: boolean;
  /** Served at the host root of every host, outside the API base path (ops probes). */
  readonly rootOnly?: boolean;
  /**
   * The last path parameter, named here, takes the rest of the path, slashes included (a file
   * inside a bundle, so that the bundle's relative links resolve).
   */
  readonly restOfPath?: string;
  /** Who may call it (see `Access`); derived from `auth` when absent. */
  readonly access?: Access;
}

/** The declared access of an operation, or the default derived from its `auth`. */
export function accessOf(op: OperationDef): { access: Access; declared: boolean } {
  if (op.access) return { access: op.access, declared: true };
  return { access: op.auth === "required" ? "signed_in" : "public", declared: false };
}

/** Declares an operation while keeping its literal types for the SDK and the handlers. */
export function defineOperation<const O extends OperationDef>(op: O): O {
  return op;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;
type InferIn<T> = T extends z.ZodType ? z.input<T> : undefined;

/** What a handler receives once validation has passed. */
export type OperationParams<O extends OperationDef> = Infer<O["params"]>;
export type OperationQuery<O extends OperationDef> = Infer<O["query"]>;
export type OperationBody<O extends OperationDef> = Infer<O["body"]>;
/** What a caller sends. */
export type OperationParamsInput<O extends OperationDef> = InferIn<O["params"]>;
export type OperationQueryInput<O extends OperationDef> = InferIn<O["query"]>;
export type OperationBodyInput<O extends OperationDef> = InferIn<O["body"]>;
/** What the server returns (before serialisation) and a client reads (after parsing). */
export type OperationResponse<O extends OperationDef> = z.output<O["response"]>;
export type OperationResponseInput<O extends OperationDef> = z.input<O["response"]>;

/**
 * `/v2/leagues/{league_id}` → `/v2/leagues/:league_id` (the router's syntax). A `restOfPath`
 * parameter at the end becomes the router's wildcard `*`. A literal colon (an action such as
 * `/v2/tournaments/{tournament_id}:lock`) is escaped as `::`, and a parameter right before one
 * stops at the colon (`:tournament_id(^[^:]+)::lock`), so that each action is its own route
 * beside the plain `/v2/tournaments/{tournament_id}`.
 */
export function routerPath(path: string, restOfPath?: string): string {
  const tail = restOfPath === undefined ? null : `{${restOfPath}}`;
  const head =
    tail !== null && path.endsWith(`/${tail}`) ? `${path.slice(0, -tail.length)}*` : path;
  return head
    .replaceAll(":", "::")
    .replace(/\{([a-z][a-z0-9_]*)\}(?=::)/g, ":$1(^[^:]+)")
    .replace(/\{([a-z][a-z0-9_]*)\}/g, ":$1");
}

/** Fills a contract path with encoded parameters. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null)
      throw new Error(`missing path parameter ${name} for ${path}`);
    if (typeof value !== "string" && typeof value !== "number")
      throw new Error(`path parameter ${name} for ${path} must be a string or a number`);
    return encodeURIComponent(String(value));
  });
}
