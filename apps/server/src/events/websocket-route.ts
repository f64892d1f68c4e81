// `GET /v2/events` as a WebSocket. The route is the contract's `subscribeEvents` operation,
// registered like every other; this attaches the upgrade handler to it, so an upgrade passes
// the same request gate (bearer token → identity; exempt from budgets) before it is accepted.
import fastifyWebsocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { RawData, WebSocket } from "ws";

import { isRevoked, type Authenticator } from "../auth/authenticate.ts";
import { isAuthenticated } from "../auth/identity.ts";
import { identityOf } from "../auth/request-identity.ts";
import type { Database } from "../store/schema.ts";
import type { EventHub } from "./hub.ts";
import { CLOSE_TOKEN_REVOKED, LiveConnection } from "./live-connection.ts";
import type { TopicRules } from "./topic-rules.ts";

export const EVENTS_OPERATION_ID = "subscribeEvents";
const PING_MS = 30_000;
const MAX_MESSAGE_BYTES = 64 * 1024;
/** "Going away" (RFC 6455 7.4.1): a client knows to reconnect, to another replica or later. */
const CLOSE_GOING_AWAY = 1001;

function bearerToken(header: string | undefined): string | null {
  return header ? (/^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null) : null;
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString("utf8");
}

/** Call before the contract's routes are registered. */
export async function installLiveEvents(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; hub: EventHub; rules: TopicRules; auth: Authenticator },
): Promise<void> {
  // This replica's open connections: a revocation heard here (its own, or another replica's over
  // the signal channel) closes the revoked tokens' sockets at once.
  const open = new Set<LiveConnection>();
  const sockets = new WeakMap<LiveConnection, WebSocket>();
  const stopListening = deps.auth.onRevocation((revocation) => {
    for (const connection of open) {
      const identity = connection.identity;
      if (isAuthenticated(identity) && isRevoked(identity, revocation))
        sockets.get(connection)?.close(CLOSE_TOKEN_REVOKED, "the token was revoked");
    }
  });
  app.addHook("onClose", (_instance, done) => {
    stopListening();
    done();
  });
  app.addHook("onRoute", (route) => {
    if (route.config?.op?.id !== EVENTS_OPERATION_ID) return;
    route.wsHandler = (socket, request) => {
      const hub = deps.hub;
      const identity = identityOf(request);
      const token = bearerToken(request.headers.authorization);
      const connection = new LiveConnection(
        socket,
        identity,
        deps.db,
        hub,
        deps.rules,
        // Anonymous stays anonymous; a token is looked up again (cached, dropped on revocation),
        // elevated again only if the upgrade asked for it and the user still holds the role.
        async () => {
          if (!token || !isAuthenticated(identity)) return identity;
          const fresh = await deps.auth.authenticate(token);
          return fresh && identity.elevated && fresh.adminRole
            ? { ...fresh, elevated: true }
            : fresh;
        },
      );
      open.add(connection);
      sockets.set(connection, socket);
      hub.add(connection);
      let alive = true;
      const ping = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, PING_MS);
      socket.on("pong", () => {
        alive = true;
      });
      socket.on("message", (data, isBinary) => {
        if (isBinary) {
          socket.send(JSON.stringify({ type: "error", message: "send text (JSON) messages" }));
          return;
        }
        connection.receive(text(data)).catch((error: unknown) => {
          request.log.error({ err: error }, "live events: a subscriber's message failed");
          socket.send(
            JSON.stringify({ type: "error", message: "the server failed to handle that message" }),
          );
        });
      });
      socket.on("close", () => {
        clearInterval(ping);
        open.delete(connection);
        hub.remove(connection);
      });
    };
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // The plugin's own shutdown closes sockets with no code (1005); say why instead.
    preClose(done) {
      for (const client of app.websocketServer.clients)
        client.close(CLOSE_GOING_AWAY, "server shutting down");
      app.websocketServer.close(() => undefined);
      done();
    },
  });
}
