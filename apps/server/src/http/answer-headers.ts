// The two headers every answer carries, a 404 included: its request id, and `Vary: Origin` (the
// CORS answer depends on Origin whatever it is, so caches must key on it). Written as prepared
// lines where the response takes them (http/prepared-headers-response.ts): through fastify, each
// costs a lower-cased copy and a keyed store, then node's checks, on every request
// (bench/hot-path). The request id is ours or matched the id pattern, so the line is valid as is.
import type { ServerResponse } from "node:http";

import type { FastifyReply, FastifyRequest } from "fastify";

import { PreparedHeadersResponse } from "./prepared-headers-response.ts";

export function setAnswerHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (prepareAnswerLines(reply.raw, request.id)) return;
  void reply.header("x-request-id", request.id).header("vary", "Origin");
}

/**
 * Puts the answer's two lines ahead of any already prepared, and `more` (lines in final form)
 * after them; false when the response cannot take prepared lines (node without the step they
 * build on).
 */
export function prepareAnswerLines(res: ServerResponse, requestId: string, more = ""): boolean {
  if (!(res instanceof PreparedHeadersResponse)) return false;
  res.preparedLines = `x-request-id: ${requestId}\r\nvary: Origin\r\n${res.preparedLines}${more}`;
  return true;
}
