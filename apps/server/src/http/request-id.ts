// A request's id: the caller's `x-request-id` when it is a plain token (it is echoed in a header
// and in logs, so nothing else is taken as given), else a new UUID. One rule for the requests
// fastify routes (its genReqId) and for the probe answered before routing (http/probe-answer.ts).
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const GIVEN_ID = /^[A-Za-z0-9._-]{1,100}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && GIVEN_ID.test(given) ? given : randomUUID();
}
