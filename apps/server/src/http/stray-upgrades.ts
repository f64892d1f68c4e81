// An upgrade request (`Upgrade: websocket`) to a route that does not upgrade: node hands its
// socket to the WebSocket plugin's 'upgrade' listener, which routes it like any request, and
// the route answers over HTTP. Nothing reads that socket after the answer, so it is closed then,
// as the plugin does for the routes it holds (the plugin's hooks run on those routes only).
import type { FastifyReply, FastifyRequest } from "fastify";

// Node's parser sets `upgrade` on a request it handed to 'upgrade' (@types/node leaves it out).
type ParsedRequest = FastifyRequest["raw"] & { upgrade?: boolean };

export function closeAfterStrayUpgrade(request: FastifyRequest, reply: FastifyReply): void {
  if ((request.raw as ParsedRequest).upgrade !== true) return;
  const socket = request.raw.socket;
  reply.raw.once("finish", () => socket.destroy());
}
