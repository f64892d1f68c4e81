// The first two steps of the request path after routing (docs/architecture.md): bearer token →
// identity, then the identity's shared budgets. Anonymous requests draw on their client
// address's budget (client-address.ts); failed authentication is answered before any budget.
import type { FastifyReply, FastifyRequest } from "fastify";

import { accessOf, BUDGET_HEADER_NAMES, ELEVATION_HEADER, type OperationDef } from "@gauntlet/core";

import type { Authenticator } from "../auth/authenticate.ts";
import { ANONYMOUS, isAuthenticated, type AuthenticatedIdentity } from "../auth/identity.ts";
import { identityOf, setIdentity } from "../auth/request-identity.ts";
import { requestToken } from "../auth/request-token.ts";
import { webSessionToken, webSocketSessionToken } from "../auth/web-session.ts";
import type { BudgetGate, BudgetGateResult } from "./budget-gate.ts";
import { clientBudgetKeyOf } from "./client-address.ts";
import { errorBody } from "./errors.ts";
import { PreparedHeadersResponse } from "./prepared-headers-response.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    op?: OperationDef;
  }
}

const LOWER_CASE_BUDGET_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  BUDGET_HEADER_NAMES.map((name) => [name, name.toLowerCase()]),
);

/**
 * The budget headers (docs/api.md, "Conventions") of one decision: its prepared lines written in
 * one piece by the response (http/prepared-headers-response.ts), or one by one through fastify
 * where the response is another (an injected request).
 */
function setBudgetHeaders(reply: FastifyReply, result: BudgetGateResult): void {
  const raw = reply.raw;
  if (raw instanceof PreparedHeadersResponse) {
    raw.preparedLines += result.lines;
    return;
  }
  const headers = result.headers;
  for (const name in headers) reply.header(LOWER_CASE_BUDGET_HEADERS[name] ?? name, headers[name]);
}

/**
 * The caller's token: a header's (auth/request-token.ts; undefined when none is sent, null when
 * malformed), else the web view's session cookie (auth/web-session.ts), counted only beside its
 * CSRF header or on a WebSocket the view's own page opens.
 */
function credentialOf(request: FastifyRequest, absolute: AbsoluteUrl): string | null | undefined {
  const token = requestToken(request.headers);
  if (token !== undefined) return token;
  return (
    webSessionToken(request.headers) ??
    webSocketSessionToken(request.headers, () => ownOrigins(request, absolute))
  );
}

/** This service's origins for a request: its public address, and the address the browser used. */
function ownOrigins(request: FastifyRequest, absolute: AbsoluteUrl): string[] {
  const own = [new URL(absolute(request, "/")).origin];
  const host = request.headers.host;
  if (host) own.push(`${request.protocol}://${host.toLowerCase()}`);
  return own;
}

const ELEVATION = ELEVATION_HEADER.toLowerCase();

/**
 * The identity a request acts as: an admin's own identity is elevated only when the request
 * asks for it, so an admin without the header is an ordinary user. Everyone else is unchanged
 * (the header means nothing without the admin role), and so is the cached identity.
 */
function asRequested(
  request: FastifyRequest,
  identity: AuthenticatedIdentity,
): AuthenticatedIdentity {
  if (!identity.adminRole) return identity;
  const asked = request.headers[ELEVATION];
  return typeof asked === "string" && asked.trim().toLowerCase() === "true"
    ? { ...identity, elevated: true }
    : identity;
}

export type AbsoluteUrl = (request: FastifyRequest, path: string) => string;

function withAbsoluteDocs(body: unknown, request: FastifyRequest, absolute: AbsoluteUrl): unknown {
  if (body === null || typeof body !== "object" || !("detail" in body)) return body;
  const detail = body.detail;
  if (detail === null || typeof detail !== "object" || !("documentation_url" in detail))
    return body;
  const url = detail.documentation_url;
  return typeof url === "string" && url.startsWith("/")
    ? { ...body, detail: { ...detail, documentation_url: absolute(request, url) } }
    : body;
}

// Operations that describe the caller itself: a machine token is shown as the machine it is.
const DESCRIBES_CALLER = new Set(["whoami"]);

/**
 * A machine (runner) token carries the runner role alone, never its owner's powers: it passes the
 * runner work queue; on a public operation it reads as anonymous (so it sees nothing private of
 * its owner's); every other operation refuses it. `pass` keeps the identity as it is.
 */
function machineVerdict(
  op: OperationDef,
  identity: AuthenticatedIdentity,
): "pass" | "anonymous" | "refuse" {
  if (identity.kind !== "machine") return "pass";
  const { access } = accessOf(op);
  if (access === "runner" || DESCRIBES_CALLER.has(op.id)) return "pass";
  return access === "public" || access === "credential" ? "anonymous" : "refuse";
}

export type RequestGate = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
) => void;

/**
 * The gate of one operation, an `onRequest` hook of its route alone: operations without
 * authentication (probes, the login page, documents) get none, so they run no hook for it.
 * The common cases — no token, or a token this replica knows with budgets in this process that
 * admit the request — pass within the call; the rest (a token to look up, Redis budgets, every
 * refusal) take the asynchronous gate, which replies itself when it refuses.
 */
export function createRequestGate(
  auth: Authenticator,
  budgets: BudgetGate | undefined,
  absolute: AbsoluteUrl,
): (op: OperationDef) => RequestGate | undefined {
  return (op) =>
    op.auth === "none"
      ? undefined
      : (request, reply, done) => {
          if (passes(op, request, reply)) return done();
          gate(op, request, reply).then(
            () => {
              if (!reply.sent) done();
            },
            (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
          );
        };

  /** True when the request passes the gate without waiting; false leaves everything to `gate`. */
  function passes(op: OperationDef, request: FastifyRequest, reply: FastifyReply): boolean {
    if (op.credentialHeader) return false;
    const token = credentialOf(request, absolute);
    if (token === undefined) {
      if (op.auth === "required") return false;
      if (budgets && !op.budgetExempt) {
        const result = budgets.evaluateNow?.(
          { budgetKey: clientBudgetKeyOf(request), kind: "anonymous" },
          op.complexity,
        );
        if (!result || result.rejection) return false;
        setBudgetHeaders(reply, result);
      }
      return true;
    }
    const identity = token ? auth.cachedIdentity(token) : undefined;
    if (!identity || machineVerdict(op, identity) !== "pass") return false;
    if (budgets && !op.budgetExempt) {
      const result = budgets.evaluateNow?.(
        { budgetKey: identity.budget.key, kind: identity.budget.kind },
        op.complexity,
      );
      if (!result || result.rejection) return false;
      setBudgetHeaders(reply, result);
    }
    setIdentity(request, asRequested(request, identity));
    return true;
  }

  async function gate(
    op: OperationDef,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    if (op.credentialHeader) {
      // This operation's credential is its own header (a reporter key), never a bearer token.
      const key = request.headers[op.credentialHeader.toLowerCase()];
      const identity =
        typeof key === "string" && key.length > 0 ? await auth.authenticateReporterKey(key) : null;
      if (!identity) {
        await reply
          .code(401)
          .send(
            errorBody(
              "unauthorized",
              `This operation needs a valid ${op.credentialHeader} header; the key given is missing, unknown or rotated.`,
            ),
          );
        return;
      }
      setIdentity(request, identity);
    }
    const token = op.credentialHeader ? undefined : credentialOf(request, absolute);
    // A machine token on a public read runs as anonymous but still draws on the machine's budget.
    let payer: AuthenticatedIdentity | undefined;
    if (token !== undefined) {
      // A hot token is answered from the cache without waiting on a promise.
      const known = token === null ? null : auth.cachedIdentity(token);
      const identity =
        known === undefined && token !== null ? await auth.authenticate(token) : (known ?? null);
      const verdict = identity ? machineVerdict(op, identity) : "pass";
      if (verdict === "refuse") {
        await reply
          .code(403)
          .send(
            errorBody(
              "forbidden",
              "A machine token carries only the runner role: it is accepted by the runner work queue (/v2/runner/…) alone. Use a person's token for this operation.",
            ),
          );
        return;
      }
      if (identity && verdict === "pass") setIdentity(request, asRequested(request, identity));
      else if (identity) {
        setIdentity(request, ANONYMOUS);
        payer = identity;
      } else if (!op.invalidTokenIsAnonymous) {
        reply.header("www-authenticate", 'Bearer error="invalid_token"');
        await reply
          .code(401)
          .send(errorBody("unauthorized", "The bearer token is unknown, revoked or expired."));
        return;
      }
    }
    const identity = identityOf(request);
    if (op.auth === "required" && !isAuthenticated(identity)) {
      reply.header("www-authenticate", "Bearer");
      await reply
        .code(401)
        .send(
          errorBody(
            "unauthorized",
            "This operation needs a bearer token (Authorization: Bearer <token>).",
          ),
        );
      return;
    }
    if (budgets && !op.budgetExempt) {
      const budgeted = isAuthenticated(identity) ? identity : payer;
      const result = await budgets.evaluate(
        budgeted
          ? { budgetKey: budgeted.budget.key, kind: budgeted.budget.kind }
          : { budgetKey: clientBudgetKeyOf(request), kind: "anonymous" },
        op.complexity,
      );
      setBudgetHeaders(reply, result);
      if (result.rejection) {
        await reply
          .code(result.rejection.status)
          .send(withAbsoluteDocs(result.rejection.body, request, absolute));
        return;
      }
    }
  }
}
