// Who is calling, per request: set by the request gate before any handler runs, read by the
// handlers and by the WebSocket upgrade. A request decoration rather than a WeakMap beside the
// request: a WeakMap entry per request is a measurable share of a budgeted read (bench/hot-path).
import type { FastifyInstance, FastifyRequest } from "fastify";

import { ANONYMOUS, type Identity } from "./identity.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Null until the request gate authenticates the caller; read it through identityOf. */
    gauntletIdentity: Identity | null;
  }
}

/** Declares the per-request slot; call once on the app, before any route. */
export function installRequestIdentity(app: FastifyInstance): void {
  app.decorateRequest("gauntletIdentity", null);
}

export function identityOf(request: FastifyRequest): Identity {
  return request.gauntletIdentity ?? ANONYMOUS;
}

export function setIdentity(request: FastifyRequest, identity: Identity): void {
  request.gauntletIdentity = identity;
}
