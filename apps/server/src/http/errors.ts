// Turns thrown errors into the error bodies of docs/api.md ("Conventions"), and answers unknown
// routes.
import type { FastifyError, FastifyInstance } from "fastify";

import type { ValidationErrorItem } from "@gauntlet/core";

import { InputError, ServiceError } from "../shared/errors.ts";
import { scrubPaths } from "../shared/scrub-paths.ts";
import { UNROUTABLE } from "./base-path.ts";
import { boundedEcho, JsonTooDeepError } from "./body-bounds.ts";
import { notFoundPage, wantsHtml } from "./not-found-page.ts";
import { PAGE_CONTENT_SECURITY_POLICY, PAGE_HEADERS } from "./page-headers.ts";
import {
  isStoreConflict,
  isStoreUnavailable,
  STORE_RETRY_AFTER_SECONDS,
} from "./store-unavailable.ts";

export function errorBody(type: string, message: string, extra: Record<string, unknown> = {}) {
  return { detail: { type, message, ...extra } };
}

const MAX_ITEMS = 50;

/**
 * The docs/api.md body of a 422, its echoes bounded (a deep or huge input is cut, never thrown back
 * whole).
 */
export function validationBody(items: readonly ValidationErrorItem[]): {
  detail: ValidationErrorItem[];
} {
  return {
    detail: items
      .slice(0, MAX_ITEMS)
      .map((item) => ("input" in item ? { ...item, input: boundedEcho(item.input) } : item)),
  };
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && "code" in error;
}

/**
 * `basePaths` (the API prefix and the data hosts) turns a browser's 404 into a page that says
 * where the service is on this host; without it every 404 is JSON.
 */
export function installErrorHandling(
  app: FastifyInstance,
  basePaths?: { prefix: string; dataHosts: readonly string[] },
): void {
  app.setErrorHandler((error, request, reply) => {
    // Messages may fold in lower-level errors (file system, archives): no server path goes out.
    if (error instanceof ServiceError)
      return reply
        .code(error.status)
        .send(errorBody(error.type, scrubPaths(error.message), error.extra));
    if (error instanceof InputError)
      return reply
        .code(422)
        .send(validationBody(error.items.map((item) => ({ ...item, msg: scrubPaths(item.msg) }))));
    if (error instanceof JsonTooDeepError)
      return reply
        .code(422)
        .send({ detail: [{ loc: ["body"], msg: error.message, type: "json_too_deep" }] });
    // PostgreSQL refuses NUL (U+0000) in text that SQLite stores: the input is wrong, not the
    // server.
    const code = (error as { code?: unknown }).code;
    if (code === "22021" || code === "22P05")
      return reply.code(422).send({
        detail: [
          {
            loc: ["request"],
            msg: "Text must not contain NUL (U+0000) characters.",
            type: "string_invalid_character",
          },
        ],
      });
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: error }, "store unavailable");
      return reply
        .code(503)
        .header("retry-after", String(STORE_RETRY_AFTER_SECONDS))
        .send(
          errorBody(
            "service_unavailable",
            "The service's database is unavailable right now; retry after a few seconds.",
          ),
        );
    }
    if (isStoreConflict(error)) {
      request.log.warn({ err: error }, "store conflict");
      return reply
        .code(503)
        .header("retry-after", "1")
        .send(
          errorBody(
            "service_unavailable",
            "A concurrent change to the same records got there first; nothing was changed. Retry.",
          ),
        );
    }
    if (isFastifyError(error)) {
      const status = error.statusCode ?? 500;
      // A body that is not JSON is a validation error of the body.
      if (
        status === 400 &&
        (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
          error instanceof SyntaxError ||
          error.code === "FST_ERR_CTP_INVALID_JSON_BODY")
      ) {
        const msg =
          error.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
            ? "The body is empty but the content type says JSON."
            : `The body is not valid JSON: ${error.message}`;
        return reply.code(422).send({ detail: [{ loc: ["body"], msg, type: "json_invalid" }] });
      }
      if (status === 415)
        return reply.code(415).send(errorBody("unsupported_media_type", scrubPaths(error.message)));
      if (status === 413)
        return reply.code(413).send(errorBody("payload_too_large", scrubPaths(error.message)));
      if (status >= 400 && status < 500)
        return reply.code(status).send(errorBody("bad_request", scrubPaths(error.message)));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply
      .code(500)
      .send(
        errorBody(
          "internal_error",
          "The server failed to handle this request; it has been logged.",
        ),
      );
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.startsWith(UNROUTABLE)
      ? request.url.slice(UNROUTABLE.length)
      : request.url;
    if (basePaths && wantsHtml(request.method, request.headers.accept))
      return reply
        .code(404)
        .headers(PAGE_HEADERS)
        .header("content-security-policy", PAGE_CONTENT_SECURITY_POLICY)
        .type("text/html; charset=utf-8")
        .send(
          notFoundPage(
            request.originalUrl.split("?")[0] ?? request.originalUrl,
            request.headers.host,
            basePaths.prefix,
            basePaths.dataHosts,
          ),
        );
    return reply
      .code(404)
      .send(
        errorBody(
          "not_found",
          `No route ${request.method} ${url.split("?")[0] ?? url} on this host.`,
        ),
      );
  });
}
