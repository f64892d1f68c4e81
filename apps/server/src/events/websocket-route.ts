// `GET /v2/events` as a WebSocket. The route is the contract's `subscribeEvents` operation,
// registered like every other; this attaches the upgrade handler to it, so an upgrade passes
// the same request gate (bearer token → identity; the upgrade drawn on the caller's budget) before
// it is accepted. Each client address (anonymous) and each user holds at most a few open sockets.
import fastifyWebsocket from "@fastify/websocket";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { RawData, WebSocket } from "ws";

import { isRevoked, type Authenticator } from "../auth/authenticate.ts";
import { isAuthenticated } from "../auth/identity.ts";
import { identityOf } from "../auth/request-identity.ts";
import { requestToken } from "../auth/request-token.ts";
import { sessionCookieOf } from "../auth/web-session.ts";
import type { Database } from "../store/schema.ts";
import { TopicFanOut } from "./fan-out.ts";
import type { EventHub } from "./hub.ts";
import { CLOSE_TOKEN_REVOKED, LiveConnection } from "./live-connection.ts";
import { ReplayTurns } from "./replay-turns.ts";
import type { TopicRules } from "./topic-rules.ts";

export const EVENTS_OPERATION_ID = "subscribeEvents";
const PING_MS = 30_000;
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Units of replay work of this replica run at once, and started a turn of the event loop
 * (events/replay-turns.ts): one. With two (and pages of 100), 100 sockets from 20 addresses
 * reconnecting with since_seq 0 held /healthz at 694 ms median; with one (pages of 50), 13 ms. */
const REPLAY_TURNS = 1;
/** Open sockets a replica holds per client address (anonymous callers) and per user, by default. */
export const MAX_SOCKETS_PER_ADDRESS = 20;
export const MAX_SOCKETS_PER_USER = 20;
/** Close code for a socket over its address's or user's cap (as 429 says it for a request). */
export const CLOSE_TOO_MANY = 4029;
/** "Going away" (RFC 6455 7.4.1): a client knows to reconnect, to another replica or later. */
const CLOSE_GOING_AWAY = 1001;

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString("utf8");
}

/** One open socket: its connection, and whether it answered the last ping. */
interface Watcher {
  readonly socket: WebSocket;
  alive: boolean;
}

/** Call before the contract's routes are registered. */
export async function installLiveEvents(
  app: FastifyInstance,
  deps: {
    db: Kysely<Database>;
    hub: EventHub;
    rules: TopicRules;
    auth: Authenticator;
    /** Tests: a smaller bound than MAX_BUFFERED_BYTES, to stall a client quickly. */
    maxBufferedBytes?: number;
    /** Subscribers written per turn of the event loop (0: all at once); FAN_OUT_CHUNK by default. */
    fanOutChunk?: number;
    /** Tests: a shorter ping interval. */
    pingMs?: number;
    /** The budget key of an anonymous request's client address (http/client-address.ts). */
    clientKey: (request: FastifyRequest) => string;
    /** The upgrade's caller's replay charge (the composition root's, on the shared budgets):
     * draws a page of replayed events on the caller's budget; null when it fits, else why not.
     * None: replays are free. */
    replayCharge?: (request: FastifyRequest) => (events: number) => Promise<string | null>;
    maxSocketsPerAddress?: number;
    maxSocketsPerUser?: number;
  },
): Promise<TopicFanOut> {
  const { hub, rules } = deps;
  // This replica's subscribers by topic; the hub hands it each event once.
  const fanOut = new TopicFanOut((delivery) => rules.routes(delivery.row), {
    ...(deps.fanOutChunk !== undefined ? { chunk: deps.fanOutChunk } : {}),
    onError: (error) => app.log.error({ err: error }, "live events: a delivery failed"),
  });
  const turns = new ReplayTurns(REPLAY_TURNS);
  hub.add(fanOut);
  // This replica's open connections: a revocation heard here (its own, or another replica's over
  // the signal channel) closes the revoked tokens' sockets at once.
  const open = new Map<LiveConnection, Watcher>();
  // Open sockets by holder: `user:<id>` for a token's, `address:<key>` for an anonymous one's.
  const held = new Map<string, number>();
  const caps = {
    user: deps.maxSocketsPerUser ?? MAX_SOCKETS_PER_USER,
    address: deps.maxSocketsPerAddress ?? MAX_SOCKETS_PER_ADDRESS,
  };
  const stopListening = deps.auth.onRevocation((revocation) => {
    for (const [connection, { socket }] of open) {
      const identity = connection.identity;
      if (isAuthenticated(identity) && isRevoked(identity, revocation)) {
        // Nothing more reaches it, even what is already on its way through this tick.
        fanOut.remove(connection);
        socket.close(CLOSE_TOKEN_REVOKED, "the token was revoked");
      }
    }
  });
  // One timer pings every socket (not one timer a socket): an idle watcher costs a ping frame
  // every PING_MS; one that did not answer the previous ping is cut off.
  const heartbeat = setInterval(() => {
    for (const watcher of open.values()) {
      if (!watcher.alive) {
        watcher.socket.terminate();
        continue;
      }
      watcher.alive = false;
      watcher.socket.ping();
    }
    // A token revoked unheard (another replica's revocation, a lost signal) is found here within
    // a ping, not only at the connection's next subscribe.
    for (const connection of open.keys())
      if (isAuthenticated(connection.identity))
        connection.recheck().catch((error: unknown) => {
          app.log.error({ err: error }, "live events: a subscriber's token was not looked up");
        });
  }, deps.pingMs ?? PING_MS);
  heartbeat.unref();
  app.addHook("onClose", (_instance, done) => {
    clearInterval(heartbeat);
    stopListening();
    hub.remove(fanOut);
    done();
  });
  app.addHook("onRoute", (route) => {
    if (route.config?.op?.id !== EVENTS_OPERATION_ID) return;
    route.wsHandler = (socket, request) => {
      const identity = identityOf(request);
      const kind = isAuthenticated(identity) ? "user" : "address";
      const holder = isAuthenticated(identity)
        ? `user:${identity.userId}`
        : `address:${deps.clientKey(request)}`;
      const count = held.get(holder) ?? 0;
      if (count >= caps[kind]) {
        socket.close(
          CLOSE_TOO_MANY,
          `over the cap of ${caps[kind]} open live-events sockets per ${kind}`,
        );
        return;
      }
      held.set(holder, count + 1);
      socket.once("close", () => {
        const left = (held.get(holder) ?? 1) - 1;
        if (left > 0) held.set(holder, left);
        else held.delete(holder);
      });
      // The token to check again: either header the gate read it from (a token sent as
      // X-Auth-Token is looked up again too), else — authenticated without one — the web view's
      // session cookie (the only other credential a socket is opened with).
      const token =
        requestToken(request.headers) ??
        (isAuthenticated(identity) ? (sessionCookieOf(request.headers.cookie) ?? null) : null);
      // Only the logger is kept: the request itself is not held for the socket's life.
      const log = request.log;
      const connection = new LiveConnection({
        socket,
        identity,
        db: deps.db,
        hub,
        fanOut,
        rules,
        stream: request.raw.socket,
        turns,
        ...(deps.replayCharge ? { chargeReplay: deps.replayCharge(request) } : {}),
        // Anonymous stays anonymous; a token is looked up again (cached, dropped on revocation),
        // elevated again only if the upgrade asked for it and the user still holds the role.
        authorise: async () => {
          if (!token || !isAuthenticated(identity)) return identity;
          const fresh = await deps.auth.authenticate(token);
          return fresh && identity.elevated && fresh.adminRole
            ? { ...fresh, elevated: true }
            : fresh;
        },
        ...(deps.maxBufferedBytes !== undefined ? { maxBufferedBytes: deps.maxBufferedBytes } : {}),
      });
      const watcher: Watcher = { socket, alive: true };
      open.set(connection, watcher);
      socket.on("pong", () => {
        watcher.alive = true;
      });
      socket.on("message", (data, isBinary) => {
        if (isBinary) {
          socket.send(JSON.stringify({ type: "error", message: "send text (JSON) messages" }));
          return;
        }
        connection.receive(text(data)).catch((error: unknown) => {
          log.error({ err: error }, "live events: a subscriber's message failed");
          socket.send(
            JSON.stringify({ type: "error", message: "the server failed to handle that message" }),
          );
        });
      });
      socket.on("close", () => {
        open.delete(connection);
        fanOut.remove(connection);
      });
    };
  });
  await app.register(fastifyWebsocket, {
    // No compression: live events are written as prepared frames (live-connection.ts).
    options: { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false },
    // A client that breaks the protocol (a message over the cap, a bad frame) is closed by ws
    // with the code that says why (1009, 1002…): one warning line, not an error with its stack
    // each time, which any anonymous client could repeat to fill the log.
    errorHandler(error, socket, request) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === "string" && code.startsWith("WS_ERR_"))
        request.log.warn({ code }, `a WebSocket client broke the protocol: ${error.message}`);
      else request.log.error({ err: error }, "a WebSocket failed");
      socket.terminate();
    },
    // The plugin's own shutdown closes sockets with no code (1005); say why instead.
    preClose(done) {
      const clients = [...app.websocketServer.clients];
      for (const client of clients) client.close(CLOSE_GOING_AWAY, "server shutting down");
      app.websocketServer.close(() => undefined);
      // A peer that never answers the close would hold the server's close for ws's 30 s: a
      // socket still open after the 5 s the HTTP connections get is ended.
      setTimeout(() => {
        for (const client of clients) client.terminate();
      }, 5_000).unref();
      done();
    },
  });
  return fanOut;
}
