// Registers one route per contract operation: validation of path, query and body with the
// contract's schemas (all problems reported at once, docs/api.md), idempotent creation, and
// responses checked against the contract before they leave.
import { isDeepStrictEqual } from "node:util";

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";

import {
  routerPath,
  toValidationItems,
  type OperationDef,
  type ValidationErrorItem,
} from "@gauntlet/core";

import { isAuthenticated } from "../auth/identity.ts";
import { identityOf } from "../auth/request-identity.ts";
import type { RequestGate } from "./authenticate-request.ts";
import { validationBody } from "./errors.ts";
import { REPLIED, type AppContext, type Handler, type Handlers } from "./handler.ts";
import { IDEMPOTENCY_HEADER, once } from "./idempotency.ts";
import { PAGE_CONTENT_SECURITY_POLICY, PAGE_HEADERS } from "./page-headers.ts";
import { JSON_TYPE, serialiserOf } from "./response-serialiser.ts";
import { sharedSerialisation } from "./serialised.ts";
import type { BeforeBody } from "./upload-handlers.ts";

type AnyHandler = Handler<OperationDef>;

interface Parsed {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** The path parameters, with the router's wildcard `*` under the operation's `restOfPath` name. */
function pathParams(op: OperationDef, request: FastifyRequest): Record<string, unknown> {
  const params = { ...(request.params as Record<string, unknown> | undefined) };
  if (op.restOfPath !== undefined) {
    params[op.restOfPath] = params["*"];
    delete params["*"];
  }
  return params;
}

type ParseResult = { ok: true; value: Parsed } | { ok: false; items: ValidationErrorItem[] };

// An operation without path, query or body schemas takes no input (probes, whoami): one shared
// answer, read and never changed, rather than a closure and two objects per request.
const NO_INPUTS: ParseResult = Object.freeze({
  ok: true,
  value: Object.freeze({ params: undefined, query: undefined, body: undefined }),
});

function parseInputs(op: OperationDef, request: FastifyRequest): ParseResult {
  if (!op.params && !op.query && !op.body) return NO_INPUTS;
  const items: ValidationErrorItem[] = [];
  const value: Parsed = { params: undefined, query: undefined, body: undefined };
  const run = (
    schema: z.ZodType | undefined,
    input: unknown,
    source: "path" | "query" | "body",
    key: keyof Parsed,
  ) => {
    if (!schema) return;
    const result = schema.safeParse(input);
    if (result.success) value[key] = result.data;
    else items.push(...toValidationItems(source, result.error.issues, input));
  };
  if (op.params) run(op.params, pathParams(op, request), "path", "params");
  run(op.query, request.query ?? {}, "query", "query");
  if (op.body) {
    const body = request.body;
    if ((body === undefined || body === null) && op.bodyOptional) {
      // An omitted optional body means "all defaults": an object schema gets {} to fill them in.
      const omitted = op.body.safeParse(undefined);
      const empty = omitted.success ? omitted : op.body.safeParse({});
      if (empty.success) value.body = empty.data;
      else items.push(...toValidationItems("body", empty.error.issues, {}));
    } else if (body === undefined)
      items.push({ loc: ["body"], msg: "Field required", type: "missing" });
    else run(op.body, body, "body", "body");
  }
  return items.length ? { ok: false, items } : { ok: true, value };
}

function send(
  op: OperationDef,
  app: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  payload: unknown,
) {
  switch (op.responseKind) {
    case "html":
      if (!reply.hasHeader("content-security-policy"))
        reply.header("content-security-policy", PAGE_CONTENT_SECURITY_POLICY);
      return reply
        .code(status)
        .headers(PAGE_HEADERS)
        .type("text/html; charset=utf-8")
        .send(payload);
    case "text":
      return reply.code(status).type("text/plain; charset=utf-8").send(payload);
    case "javascript":
      return reply
        .code(status)
        .type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .send(payload);
    case "bytes":
      return reply.code(status).type("application/octet-stream").send(payload);
    default: {
      const shared = sharedSerialisation(payload);
      if (!app.config.validateResponses)
        return reply
          .code(status)
          .type(JSON_TYPE)
          .send(shared ?? serialiserOf(op)(payload));
      const checked = op.response.safeParse(payload);
      if (!checked.success) {
        // A response off the contract is our bug: log it precisely and fail loudly.
        request.log.error(
          { op: op.id, issues: checked.error.issues },
          "response does not match the contract",
        );
        throw new Error(`response of ${op.id} does not match the contract`);
      }
      // With validation on (tests), what production sends — the compiled serialiser's output, or
      // kept bytes — must be the same JSON as the checked value (fields may come in another order).
      const compiled = serialiserOf(op)(checked.data);
      if (!isDeepStrictEqual(JSON.parse(compiled), JSON.parse(JSON.stringify(checked.data))))
        throw new Error(`the compiled serialiser of ${op.id} changes its response`);
      if (
        shared !== undefined &&
        !isDeepStrictEqual(JSON.parse(shared.toString("utf8")), JSON.parse(compiled))
      )
        throw new Error(`the kept serialisation of ${op.id} differs from its checked response`);
      return reply.code(status).type(JSON_TYPE).send(compiled);
    }
  }
}

export function registerOperations(
  app: FastifyInstance,
  ctx: AppContext,
  operations: readonly OperationDef[],
  handlers: Handlers,
  gateFor: (op: OperationDef) => RequestGate | undefined,
): void {
  // Each handler is typed against its own operation; here they are driven generically.
  const byId = handlers as unknown as Record<string, AnyHandler | undefined>;
  for (const op of operations) {
    const handler = byId[op.id];
    if (!handler) throw new Error(`the contract operation ${op.id} has no handler`);
    const gate = gateFor(op);
    // A handler's check of the request before its body is read (http/upload-handlers.ts).
    const { beforeBody } = handler as BeforeBody;
    const onRequest = [
      ...(gate ? [gate] : []),
      ...(beforeBody
        ? [
            async (request: FastifyRequest, reply: FastifyReply) => {
              // The path and query as the handler reads them: a wrong one is its 422, unread.
              const parsed = parseInputs({ ...op, body: undefined }, request);
              if (!parsed.ok) return reply.code(422).send(validationBody(parsed.items));
              await beforeBody(parsed.value, ctx);
              return undefined;
            },
          ]
        : []),
    ];
    app.route({
      ...(onRequest.length ? { onRequest } : {}),
      method: op.method,
      url: routerPath(op.path, op.restOfPath),
      config: { op },
      ...(op.maxBodyBytes !== undefined ? { bodyLimit: op.maxBodyBytes } : {}),
      handler: async (request, reply) => {
        const parsed = parseInputs(op, request);
        if (!parsed.ok) return reply.code(422).send(validationBody(parsed.items));
        const identity = identityOf(request);
        // Named fields, not a spread of parsed.value: a spread's literal is built on a slow path.
        const call = () =>
          handler({
            params: parsed.value.params,
            query: parsed.value.query,
            body: parsed.value.body,
            identity,
            request,
            reply,
            app: ctx,
          } as Parameters<AnyHandler>[0]);
        const key = request.headers[IDEMPOTENCY_HEADER];
        if (op.idempotent && typeof key === "string" && isAuthenticated(identity)) {
          const scope = `${identity.subjectId}:${op.id}`;
          const result = await once(
            ctx.store.db,
            scope,
            key,
            { params: parsed.value.params, body: request.body ?? null },
            async () => {
              const body = await call();
              if (body === REPLIED)
                throw new Error(`${op.id} cannot be both idempotent and self-replying`);
              const checked = ctx.config.validateResponses ? op.response.parse(body) : body;
              return { status: op.status, body: checked };
            },
          );
          if (result.replayed) reply.header("idempotent-replayed", "true");
          return reply.code(result.status).send(result.body);
        }
        const body = await call();
        if (body === REPLIED) return reply;
        // A handler may choose another status (e.g. 503 from readyz) by setting it on the reply.
        // Sent here, so nothing is returned: returning the reply (a thenable) costs fastify a
        // promise job and a call of its `then` for a reply already sent.
        send(
          op,
          ctx,
          request,
          reply,
          reply.statusCode !== 200 ? reply.statusCode : op.status,
          body,
        );
        return undefined;
      },
    });
  }
}
