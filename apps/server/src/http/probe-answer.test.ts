import { request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { createUrlRewriter } from "./base-path.ts";
import { nodeServerFactory } from "./node-server.ts";
import { createProbeAnswer, type ProbeAnswer } from "./probe-answer.ts";

const BODY = '{"status":"ok"}';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server whose "router" answers 299 and records what reached it. */
async function start(
  routeAll = false,
): Promise<{ url: string; routed: string[]; probe: ProbeAnswer }> {
  const probe = createProbeAnswer({
    path: "/healthz",
    body: BODY,
    contentType: "application/json; charset=utf-8",
    rewrite: createUrlRewriter("/observatory", ["localhost"]),
    routeAll,
  });
  const routed: string[] = [];
  server = nodeServerFactory(probe)(
    (req, res) => {
      routed.push(`${req.method ?? ""} ${req.url ?? ""}`);
      res.writeHead(299).end("routed");
    },
    { keepAliveTimeout: 72_000, requestTimeout: 0, connectionTimeout: 0, maxRequestsPerSocket: 0 },
  );
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  const { port } = listening.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, routed, probe };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request through node:http, which sends the headers it is given (fetch drops Host, Origin). */
async function ask(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the liveness probe answered before routing", () => {
  it("answers a plain GET /healthz itself, with a request id, vary and the route's type", async () => {
    const { url, routed } = await start();
    const answer = await ask(`${url}/healthz`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(BODY);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers["content-length"]).toBe("15");
    expect(answer.headers.vary).toBe("Origin");
    expect(answer.headers["x-request-id"]).toMatch(UUID);
    expect(answer.headers["keep-alive"]).toBe("timeout=72");
    expect(routed).toEqual([]);
  });

  it("echoes a plain request id and replaces any other", async () => {
    const { url } = await start();
    const given = await ask(`${url}/healthz`, { headers: { "x-request-id": "probe-1.a_b" } });
    expect(given.headers["x-request-id"]).toBe("probe-1.a_b");
    const odd = await ask(`${url}/healthz`, { headers: { "x-request-id": "a\tb" } });
    expect(odd.headers["x-request-id"]).toMatch(UUID);
  });

  it("answers at the root of a data host, where the API is under its prefix", async () => {
    const { url, routed } = await start();
    const viaPrefix = await ask(`${url}/observatory/healthz`, { headers: { host: "localhost" } });
    expect(viaPrefix.body).toBe(BODY);
    const atRoot = await ask(`${url}/healthz`, { headers: { host: "localhost:1" } });
    expect(atRoot.body).toBe(BODY);
    expect(routed).toEqual([]);
  });

  it("routes everything the route would answer differently", async () => {
    const { url, routed } = await start();
    const asks: [string, { method?: string; headers?: Record<string, string> }][] = [
      ["/healthz", { method: "HEAD" }],
      ["/healthz", { method: "POST" }],
      ["/healthz?verbose=1", {}],
      ["/healthz/", {}],
      ["/healthzz", {}],
      ["/observatory/healthz", {}], // not a data host: the prefix is not served here
      ["/healthz", { headers: { origin: "http://localhost:3000" } }],
      ["/healthz", { headers: { "content-length": "0" } }],
      ["/healthz", { headers: { "transfer-encoding": "chunked" } }],
    ];
    for (const [path, options] of asks) {
      const answer = await ask(`${url}${path}`, options);
      expect(answer.status, `${options.method ?? "GET"} ${path}`).toBe(299);
    }
    expect(routed).toEqual([
      "HEAD /healthz",
      "POST /healthz",
      "GET /healthz?verbose=1",
      "GET /healthz/",
      "GET /healthzz",
      "GET /observatory/healthz",
      "GET /healthz",
      "GET /healthz",
      "GET /healthz",
    ]);
  });

  it("routes every probe once the server is closing, or when every request is logged", async () => {
    const closing = await start();
    closing.probe.drain();
    expect((await ask(`${closing.url}/healthz`)).status).toBe(299);
    await new Promise((resolve) => server?.close(resolve));
    const logged = await start(true);
    expect((await ask(`${logged.url}/healthz`)).status).toBe(299);
    expect(logged.routed).toEqual(["GET /healthz"]);
  });
});
