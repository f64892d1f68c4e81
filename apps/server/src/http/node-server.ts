// The node:http server fastify runs on, made here (fastify's `serverFactory`) for what fastify's
// own would not do: responses of the prepared-headers class (http/prepared-headers-response.ts),
// and the liveness probe answered ahead of fastify's handler (http/probe-answer.ts). Fastify's
// server settings are applied as fastify applies them to the server it makes; its defaults
// (a 72 s keep-alive) are already in the options it passes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

import type { FastifyServerFactory } from "fastify";

import { preparedHeadersResponse } from "./prepared-headers-response.ts";
import type { ProbeAnswer } from "./probe-answer.ts";

function numberOption(options: Record<string, unknown>, name: string): number | undefined {
  const value = options[name];
  return typeof value === "number" ? value : undefined;
}

export function nodeServerFactory(probe: ProbeAnswer): FastifyServerFactory<Server> {
  return (handler, options) => {
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      if (!probe.answer(req, res)) handler(req, res);
    };
    const server = preparedHeadersResponse
      ? createServer({ ServerResponse: preparedHeadersResponse }, listener)
      : createServer(listener);
    const keepAlive = numberOption(options, "keepAliveTimeout");
    if (keepAlive !== undefined) server.keepAliveTimeout = keepAlive;
    const requestTimeout = numberOption(options, "requestTimeout");
    if (requestTimeout !== undefined) server.requestTimeout = requestTimeout;
    server.setTimeout(numberOption(options, "connectionTimeout") ?? 0);
    const perSocket = numberOption(options, "maxRequestsPerSocket");
    if (perSocket !== undefined && perSocket > 0) server.maxRequestsPerSocket = perSocket;
    return server;
  };
}
