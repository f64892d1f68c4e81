import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { saveCredential } from "@gauntlet/core";

import {
  budgetHeaders,
  sampleLeague,
  startScriptedServer,
  type ScriptedServer,
} from "../test/scripted-server.ts";
import { createClient, Gauntlet } from "./client.ts";
import {
  GauntletConfigError,
  isResponseValidationError,
  ResponseValidationError,
} from "./errors.ts";

const LEAGUE_ID = "league_00000000-0000-4000-8000-000000000001";
let server: ScriptedServer;
const noEnv = { env: {}, useSavedCredentials: false } as const;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe("calls", () => {
  it("puts path parameters in the path, sends the token and returns the parsed response", async () => {
    server.setScript(() => ({ json: sampleLeague() }));
    const client = createClient({ ...noEnv, baseUrl: `${server.url}/observatory/`, token: "tok" });
    const league = await client.leagues.get({ league_id: LEAGUE_ID });
    expect(league.id).toBe(LEAGUE_ID);
    expect(league.game.name).toBe("Game");
    const [req] = server.requests;
    expect(req?.method).toBe("GET");
    expect(req?.url).toBe(`/observatory/v2/leagues/${LEAGUE_ID}`);
    expect(req?.headers.authorization).toBe("Bearer tok");
    expect(req?.headers.accept).toBe("application/json");
  });

  it("sends query parameters with their caller types (booleans as true/false) and drops undefined ones", async () => {
    server.setScript(() => ({ json: [] }));
    const client = new Gauntlet({ ...noEnv, baseUrl: server.url });
    await client.divisions.list({ league_id: LEAGUE_ID, include_archived: true });
    await client.divisions.list({ league_id: undefined });
    await client.divisions.list();
    expect(server.requests.map((r) => r.url)).toEqual([
      `/v2/divisions?league_id=${LEAGUE_ID}&include_archived=true`,
      "/v2/divisions",
      "/v2/divisions",
    ]);
  });

  it("sends the body as JSON, with path parameters alongside", async () => {
    server.setScript(() => ({ json: sampleLeague() }));
    const client = createClient({ ...noEnv, baseUrl: server.url, token: "t" });
    await client.leagues.update({ league_id: LEAGUE_ID, body: { name: "Renamed", public: true } });
    const [req] = server.requests;
    expect(req?.method).toBe("PATCH");
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req?.body ?? "")).toEqual({ name: "Renamed", public: true });
  });

  it("sends an array body as it is (replace the division set)", async () => {
    server.setScript(() => ({ json: [] }));
    const client = createClient({ ...noEnv, baseUrl: server.url, token: "t" });
    await client.leagues.replaceDivisions({
      league_id: LEAGUE_ID,
      body: [{ name: "Top", level: 0 }],
    });
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual([{ name: "Top", level: 0 }]);
  });

  it("does not send the token to operations that take none", async () => {
    server.setScript(() => ({ json: { status: "ok" } }));
    const client = createClient({ ...noEnv, baseUrl: server.url, token: "secret" });
    expect(await client.service.health()).toEqual({ status: "ok" });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("returns an HTML page as text", async () => {
    server.setScript(() => ({
      text: "<html>docs</html>",
      headers: { "content-type": "text/html" },
    }));
    const client = createClient({ ...noEnv, baseUrl: server.url });
    expect(await client.service.docs()).toBe("<html>docs</html>");
  });

  it("sends an octet-stream body as raw bytes and reads a binary response as bytes", async () => {
    server.setScript((req) =>
      req.method === "PUT"
        ? {
            json: {
              coworld_id: "cow_1",
              coworld_name: "tag",
              owner_user_id: "u",
              secret_name: "API_KEY",
              size_bytes: req.body.length,
              updated_at: "2025-01-01T00:00:00Z",
            },
          }
        : { text: "\u0000replay-bytes", headers: { "content-type": "application/octet-stream" } },
    );
    const client = createClient({ ...noEnv, baseUrl: server.url, token: "t" });
    const record = await client.coworldSecrets.put({
      coworld_name: "tag",
      secret_name: "API_KEY",
      body: new TextEncoder().encode("s3cret"),
    });
    expect(record.size_bytes).toBe(6);
    expect(server.requests[0]?.headers["content-type"]).toBe("application/octet-stream");
    expect(server.requests[0]?.body).toBe("s3cret");
    const bytes = await client.episodeRequests.getArtifact({
      episode_request_id: "ereq_00000000-0000-4000-8000-000000000001",
      artifact_type: "replay",
    });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(bytes)).toBe("\u0000replay-bytes");
  });

  it("rejects an input field the operation does not have, before any request", async () => {
    const client = createClient({ ...noEnv, baseUrl: server.url });
    // Untyped callers (plain JS) can still pass anything.
    const get = client.leagues.get as (input: Record<string, unknown>) => Promise<unknown>;
    await expect(get({ league_id: LEAGUE_ID, leagueId: "x" })).rejects.toThrow(
      /unknown input field "leagueId" \(expected league_id\)/,
    );
    await expect(get({})).rejects.toThrow(/missing path parameter league_id/);
    expect(server.requests).toHaveLength(0);
  });

  it("exposes status, headers, request id and budget with requestWithMeta, and keeps the last budget", async () => {
    server.setScript(() => ({
      json: sampleLeague(),
      headers: { "x-request-id": "req-42", ...budgetHeaders("allowed") },
    }));
    const client = createClient({ ...noEnv, baseUrl: server.url, token: "t" });
    expect(client.lastBudget).toBeNull();
    const { data, meta } = await client.requestWithMeta("getLeague", { league_id: LEAGUE_ID });
    expect(data.name).toBe("League");
    expect(meta.status).toBe(200);
    expect(meta.requestId).toBe("req-42");
    expect(meta.attempts).toBe(1);
    expect(meta.budget?.buckets.requestsMinute).toEqual({
      limit: 100,
      remaining: 42,
      resetUnixSeconds: 1767225600,
    });
    expect(client.lastBudget).toEqual(meta.budget);
  });
});

describe("responses off the contract", () => {
  it("fail with ResponseValidationError naming the wrong field", async () => {
    const league = sampleLeague();
    server.setScript(() => ({
      json: [{ ...league, game: { ...league.game, created_at: "yesterday" } }],
      headers: { "x-request-id": "r-1" },
    }));
    const client = createClient({ ...noEnv, baseUrl: server.url });
    const error = await client.leagues.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(isResponseValidationError(error) && error.path).toBe("[0].game.created_at");
    expect(isResponseValidationError(error) && error.requestId).toBe("r-1");
    expect(String(error)).toMatch(
      /listLeagues: response is off the contract at \[0\]\.game\.created_at/,
    );
  });

  it("fail when a required field is missing or the body is not JSON", async () => {
    const { name: _name, ...nameless } = sampleLeague();
    server.setScript(() => ({ json: nameless }));
    const client = createClient({ ...noEnv, baseUrl: server.url });
    await expect(client.leagues.get({ league_id: LEAGUE_ID })).rejects.toThrow(
      /off the contract at name/,
    );
    server.setScript(() => ({
      text: "<html>oops</html>",
      headers: { "content-type": "text/html" },
    }));
    await expect(client.leagues.get({ league_id: LEAGUE_ID })).rejects.toThrow(
      /at \(root\): not JSON/,
    );
  });
});

describe("configuration", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "gauntlet-sdk-cfg-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("has no built-in server: a call without one fails with a configuration error", async () => {
    const client = createClient(noEnv);
    expect(client.baseUrl).toBeNull();
    const error = await client.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GauntletConfigError);
    expect(String(error)).toMatch(/no Gauntlet server configured.*GAUNTLET_SERVER/);
    expect(() => createClient({ ...noEnv, baseUrl: "not a url" })).toThrow(GauntletConfigError);
  });

  it("reads GAUNTLET_SERVER and GAUNTLET_TOKEN", async () => {
    server.setScript(() => ({ json: [] }));
    const client = createClient({
      env: { GAUNTLET_SERVER: server.url, GAUNTLET_TOKEN: "env-token" },
      useSavedCredentials: false,
    });
    await client.players.list();
    expect(server.requests[0]?.headers.authorization).toBe("Bearer env-token");
  });

  it("uses the server and token saved by the CLI's login", async () => {
    const env = { XDG_CONFIG_HOME: dir };
    saveCredential(server.url, { token: "saved-token" }, { env });
    server.setScript(() => ({ json: [] }));
    const client = createClient({ env });
    expect(client.baseUrl).toBe(server.url);
    await client.tokens.list();
    expect(server.requests[0]?.headers.authorization).toBe("Bearer saved-token");
  });

  it("lets one request override server, token, headers; another server gets its own token, not the client's", async () => {
    const other = await startScriptedServer(() => ({ json: [] }));
    try {
      server.setScript(() => ({ json: [] }));
      const client = createClient({
        ...noEnv,
        baseUrl: server.url,
        token: "client-token",
        headers: { "x-team": "a" },
      });
      await client.players.list(undefined, { token: "request-token", headers: { "x-trace": "1" } });
      await client.players.list(undefined, { token: null });
      await client.players.list(undefined, { baseUrl: other.url });
      expect(server.requests.map((r) => r.headers.authorization)).toEqual([
        "Bearer request-token",
        undefined,
      ]);
      expect(server.requests[0]?.headers["x-team"]).toBe("a");
      expect(server.requests[0]?.headers["x-trace"]).toBe("1");
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("asks for admin powers only when elevated, and only with a token", async () => {
    const sent: (string | null)[] = [];
    const fetch = async (input: Request | string | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      sent.push(request.headers.get("x-use-elevated-privileges"));
      return new Response(JSON.stringify([]), { headers: { "content-type": "application/json" } });
    };
    const base = { ...noEnv, baseUrl: "http://gauntlet.invalid", fetch };
    await createClient({ ...base, token: "t" }).tokens.list();
    await createClient({ ...base, token: "t", elevated: true }).tokens.list();
    await createClient({ ...base, token: "t" }).tokens.list(undefined, { elevated: true });
    await createClient({ ...base, token: null, elevated: true }).tokens.list();
    expect(sent).toEqual([null, "true", "true", null]);
  });

  it("uses a custom fetch", async () => {
    const seen: string[] = [];
    const client = createClient({
      ...noEnv,
      baseUrl: "http://gauntlet.invalid",
      fetch: async (input) => {
        seen.push(input instanceof Request ? input.url : String(input));
        return new Response(JSON.stringify({ status: "ok" }), {
          headers: { "content-type": "application/json" },
        });
      },
    });
    expect(await client.service.health()).toEqual({ status: "ok" });
    expect(seen).toEqual(["http://gauntlet.invalid/healthz"]);
  });
});
