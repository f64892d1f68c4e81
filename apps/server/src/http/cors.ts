// Budget headers are readable by browser clients from approved service origins and
// local-development origins; other origins get no CORS grant at all.
//
// Written here rather than with @fastify/cors because the grant is fixed at start: the plugin
// rebuilds its options and an origin callback on every request, which cost a cheap read about
// 5% of its throughput in bench/hot-path. Requests without an Origin header (every CLI, SDK and
// runner call) pay for one Vary header and nothing else.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

import { BUDGET_HEADER_NAMES } from "@gauntlet/core";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const EXPOSED = [...BUDGET_HEADER_NAMES, "retry-after", "x-request-id", "idempotent-replayed"].join(
  ", ",
);
const ALLOWED_HEADERS = [
  "authorization",
  "x-auth-token",
  "content-type",
  "idempotency-key",
  "x-request-id",
].join(", ");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"].join(", ");
const PREFLIGHT_MAX_AGE = "600";

export function isAllowedOrigin(origin: string, approved: readonly string[]): boolean {
  if (approved.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Adds the CORS grant to an answer from a granted origin; called from the one onRequest hook,
 * after http/answer-headers.ts has marked every answer as varying by Origin.
 */
export function corsHeaders(
  approved: readonly string[],
): (request: FastifyRequest, reply: FastifyReply) => void {
  return (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !isAllowedOrigin(origin, approved)) return;
    void reply.header("access-control-allow-origin", origin);
    void reply.header("access-control-expose-headers", EXPOSED);
  };
}

/** Preflights from a granted origin get 204 with what may be sent; any other OPTIONS is a 404. */
export function installPreflight(app: FastifyInstance, approved: readonly string[]): void {
  app.options("*", (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !isAllowedOrigin(origin, approved)) {
      reply.callNotFound();
      return;
    }
    void reply
      .header("access-control-allow-methods", METHODS)
      .header("access-control-allow-headers", ALLOWED_HEADERS)
      .header("access-control-max-age", PREFLIGHT_MAX_AGE)
      .header("content-length", "0")
      .code(204)
      .send();
  });
}
