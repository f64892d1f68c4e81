// The liveness probe (`GET /healthz`) answered before fastify's routing. Balancers and
// orchestrators ask it of every replica every few seconds, and its answer says only that this
// process answers: routed, it paid fastify's router, request and reply objects, hook runner,
// handler and serialiser — a fifth of its cost over a bare node:http answer (bench/hot-path).
//
// The answer is the routed one byte for byte, headers in the same order (probe-answer.http.test.ts
// compares them). Whatever the routed path would treat differently is left to it: another method
// or path (a query string too), an Origin (the CORS grant), a body, access logs on (the probe would
// go unlogged), a response that cannot take prepared lines, and a server that is closing
// (fastify's 503 tells the balancer to stop sending).
import type { IncomingMessage, ServerResponse } from "node:http";

import { prepareAnswerLines } from "./answer-headers.ts";
import { requestIdOf } from "./request-id.ts";

export interface ProbeAnswerOptions {
  /** The probe's path, as the router sees it after `rewrite`. */
  path: string;
  /** The routed answer's JSON body, serialised as the route serialises it. */
  body: string;
  /** The content type the routed answer carries. */
  contentType: string;
  /** The URL rewrite fastify applies before routing (base paths, data hosts). */
  rewrite: (url: string, hostHeader: string | undefined) => string;
  /** When true, every request is routed (access logs are on). */
  routeAll: boolean;
}

export interface ProbeAnswer {
  /** Answers `req` when it is the plain probe; false leaves it to fastify. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
  /** From now on every request is routed (the server is closing). */
  drain(): void;
}

export function createProbeAnswer(options: ProbeAnswerOptions): ProbeAnswer {
  const { path, body, rewrite } = options;
  const typeLine = `content-type: ${options.contentType}\r\n`;
  const lengthHeader = ["content-length", String(Buffer.byteLength(body))];
  let routeAll = options.routeAll;
  return {
    answer(req, res) {
      // Most requests are not the probe: the cheapest tests first, the URL rewrite (which
      // fastify runs again for what it routes) only for a path that may rewrite to the probe's.
      const url = req.url ?? "/";
      if (routeAll || req.method !== "GET" || !url.endsWith(path)) return false;
      const headers = req.headers;
      if (
        headers.origin !== undefined ||
        headers["content-length"] !== undefined ||
        headers["transfer-encoding"] !== undefined ||
        rewrite(url, headers.host) !== path ||
        !prepareAnswerLines(res, requestIdOf(req), typeLine)
      )
        return false;
      res.writeHead(200, lengthHeader);
      res.end(body);
      return true;
    },
    drain() {
      routeAll = true;
    },
  };
}
