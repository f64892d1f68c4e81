// Who is calling, per request: set by the request gate before any handler runs, read by the
// handlers and by the WebSocket upgrade. Kept beside the request rather than decorated onto it,
// so the type needs no placeholder value.
import type { FastifyRequest } from "fastify";
import { ANONYMOUS, type Identity } from "./identity.ts";

const identities = new WeakMap<FastifyRequest, Identity>();

export function identityOf(request: FastifyRequest): Identity {
  return identities.get(request) ?? ANONYMOUS;
}

export function setIdentity(request: FastifyRequest, identity: Identity): void {
  identities.set(request, identity);
}
