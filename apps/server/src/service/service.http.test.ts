import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe("self-description", () => {
  it("serves a valid OpenAPI 3.1.0 document, version 1.0.0, with the spec's tags and bearer scheme", async () => {
    const res = await client(t.url).get<Record<string, unknown>>("/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body as {
      openapi: string;
      info: { version: string };
      tags: { name: string }[];
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
      paths: Record<string, Record<string, Record<string, unknown>>>;
      servers: { url: string }[];
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    // The groups of docs/api.md that have operations (an empty group would be an empty sidebar entry).
    const tagNames = doc.tags.map((tag) => tag.name);
    const used = new Set(
      Object.values(doc.paths).flatMap((byMethod) =>
        Object.values(byMethod).flatMap((op) => op.tags as string[]),
      ),
    );
    for (const tag of [
      "Players",
      "Policies",
      "Container Images",
      "Coworlds",
      "Leagues",
      "Lobbies",
      "Experience Requests",
      "Episodes",
      "Rounds",
      "Tournaments",
      "Reporters",
      "Play Modules",
      "Posts",
      "Wikis",
    ]) {
      expect(tagNames.includes(tag), tag).toBe(used.has(tag));
    }
    expect(tagNames).toContain("Players");
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    for (const name of [
      "League",
      "Division",
      "Game",
      "Mod",
      "WhoAmI",
      "HTTPValidationError",
      "RateLimitError",
    ])
      expect(doc.components.schemas[name]).toBeDefined();
    expect(doc.paths["/whoami"]?.get?.["x-rate-limit"]).toEqual({ complexity: 1, budgeted: true });
    expect(doc.paths["/v2/leagues"]?.get?.["x-rate-limit"]).toEqual({
      complexity: 10,
      budgeted: true,
    });
    expect(doc.servers[0]?.url).toBe(t.url);
    await expect(validate(structuredClone(res.body) as never)).resolves.toEqual(
      expect.objectContaining({ valid: true }),
    );
  });

  it("lists the configured public address as the server, whichever host it is read through", async () => {
    const res = await client(t.dataUrl).get<{ servers: { url: string }[] }>("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.servers[0]?.url).toBe(t.url);
  });

  it("serves the interactive reference and its script locally", async () => {
    const page = await client(t.url).get("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain('data-url="openapi.json"');
    const script = await client(t.url).get("/docs/scalar.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(script.text.length).toBeGreaterThan(100_000);
  });

  it("answers liveness and readiness", async () => {
    expect((await client(t.url).get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await client(t.url).get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", checks: { store: { ok: true } } });
  });

  it("gives every response a request id, echoing a well-formed one", async () => {
    const res = await client(t.url).get("/healthz", { headers: { "x-request-id": "abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
    expect((await client(t.url).get("/healthz")).headers.get("x-request-id")).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});

describe("base addresses", () => {
  it("serves the API under the prefix on the data host", async () => {
    const res = await client(t.dataUrl).get<{ subject_type: string }>("/whoami");
    expect(res.status).toBe(200);
    expect(res.body.subject_type).toBe("anonymous");
  });

  it("serves the API at the root of the alt host", async () => {
    expect((await client(t.url).get("/whoami")).status).toBe(200);
  });

  it("answers 404 for the prefix at the alt host's root", async () => {
    const res = await client(t.url).get<{ detail: { type: string } }>("/observatory/whoami");
    expect(res.status).toBe(404);
    expect(res.body.detail.type).toBe("not_found");
  });

  it("does not serve the API without the prefix on the data host", async () => {
    const port = new URL(t.url).port;
    expect((await http("GET", `http://localhost:${port}/whoami`)).status).toBe(404);
  });

  it("answers unknown routes with the not_found body", async () => {
    const res = await client(t.url).get<{ detail: { type: string; message: string } }>(
      "/v2/nothing-here",
    );
    expect(res.status).toBe(404);
    expect(res.body.detail).toEqual({
      type: "not_found",
      message: "No route GET /v2/nothing-here on this host.",
    });
  });
});

describe("CORS for budget headers", () => {
  it("lets a local-development origin read the budget headers", async () => {
    const user = await t.newUser();
    const res = await client(t.url, user.token).get("/whoami", {
      headers: { origin: "http://localhost:5173" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    for (const h of ["x-complexity", "x-ratelimit-requests-minute-remaining", "retry-after"]) {
      expect(exposed).toContain(h);
    }
    const preflight = await http("OPTIONS", `${t.url}/v2/leagues`, {
      headers: {
        origin: "http://127.0.0.1:3000",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:3000");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect((preflight.headers.get("access-control-allow-headers") ?? "").split(/,\s*/)).toEqual(
      expect.arrayContaining(["authorization", "content-type", "idempotency-key"]),
    );
    expect(preflight.headers.get("access-control-max-age")).toBe("600");
  });

  it("grants an approved service origin, and marks every answer as varying by Origin", async () => {
    const res = await client(t.url).get("/healthz");
    expect(res.headers.get("vary")).toBe("Origin");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const missing = await client(t.url).get("/v2/nothing-here", {
      headers: { origin: "http://localhost:8080" },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe("http://localhost:8080");
  });

  it("grants nothing to another origin", async () => {
    const res = await client(t.url).get("/whoami", { headers: { origin: "https://evil.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-expose-headers")).toBeNull();
    const preflight = await http("OPTIONS", `${t.url}/v2/leagues`, {
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
  });
});
