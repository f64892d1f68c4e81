// Every absolute address the server hands out comes from configuration: a hostile `Host` header
// on the last join of a hosted game does not move the runner's relay (nor the joiner's socket),
// X-Forwarded-Proto/-Host count only from a trusted proxy, and GAUNTLET_PUBLIC_URL wins over both.
import { request as httpRequest } from "node:http";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { HostedGameCreateResponse, HostedGameJoinResponse, LeasedJob } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

/** A request with headers fetch() will not send (Host among them). */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function serversOf(t: TestServer, headers: Record<string, string>): Promise<string> {
  const res = await raw(`${t.url}/openapi.json`, "GET", headers);
  expect(res.status).toBe(200);
  const doc = JSON.parse(res.body) as { servers: { url: string }[] };
  return doc.servers[0]?.url ?? "";
}

const HOSTILE = { host: "evil.example:6666" };
const FORWARDED = { "x-forwarded-proto": "https", "x-forwarded-host": "play.example.com" };

describe("hosted play with a hostile Host header", () => {
  let t: TestServer;
  let tl: TestLeague;
  beforeAll(async () => {
    t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
    tl = await createTestLeague(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("relays every human seat to the configured address, whoever joins last", async () => {
    const created = await client(t.url, tl.commissioner.token).post<HostedGameCreateResponse>(
      "/v2/coworlds/play/session",
      { coworld_id: tl.coworldId, variant_id: "ffa-4", player_count: 2 },
    );
    expect(created.status, created.text).toBe(200);
    const joinPath = `/v2/coworlds/play/session/${created.body.session_id}/join`;
    expect((await client(t.url).post(joinPath)).status).toBe(200);
    // The last joiner (no token needed) names a host of its own.
    const last = await raw(`${t.url}${joinPath}`, "POST", HOSTILE);
    expect(last.status, last.body).toBe(200);
    const joined = JSON.parse(last.body) as HostedGameJoinResponse;
    expect(joined.player_url).not.toContain("evil.example");
    expect(joined.player_url.startsWith(`${t.url.replace(/^http/, "ws")}/`)).toBe(true);

    const runner = client(t.url, await t.machineToken("public-address"));
    const lease = await runner.post<{ jobs: LeasedJob[] }>("/v2/runner/jobs/lease", {
      runner_id: "r-public-address",
      capacity: 1,
      runtimes: ["process"],
      isolation: "sandbox",
    });
    expect(lease.status, lease.text).toBe(200);
    const relays = (lease.body.jobs[0]?.players ?? []).flatMap((p) =>
      p.human_relay ? [p.human_relay.url] : [],
    );
    expect(relays).toHaveLength(2);
    for (const url of relays) {
      expect(url).not.toContain("evil.example");
      expect(url.startsWith(`${t.url.replace(/^http/, "ws")}/v2/play-sessions/`)).toBe(true);
    }
  });

  it("lists the listening address as the OpenAPI server whatever the Host header says", async () => {
    expect(await serversOf(t, HOSTILE)).toBe(t.url);
    // Forwarded headers from a peer that is not a trusted proxy are ignored too.
    expect(await serversOf(t, FORWARDED)).toBe(t.url);
  });
});

describe("behind proxies", () => {
  const started: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((t) => t.close()));
  });
  const start = async (env: Record<string, string>) => {
    const t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off", ...env } });
    started.push(t);
    return t;
  };

  it("believes X-Forwarded-Proto/-Host from a trusted proxy only", async () => {
    const trusting = await start({ GAUNTLET_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1" });
    expect(await serversOf(trusting, FORWARDED)).toBe("https://play.example.com");
    // Without the forwarded host, the Host header still decides nothing.
    expect(await serversOf(trusting, { ...HOSTILE, "x-forwarded-proto": "https" })).toBe(
      trusting.url,
    );
    const elsewhere = await start({ GAUNTLET_TRUSTED_PROXIES: "10.0.0.0/8" });
    expect(await serversOf(elsewhere, FORWARDED)).toBe(elsewhere.url);
  });

  it("uses GAUNTLET_PUBLIC_URL for every address when it is set, even behind a trusted proxy", async () => {
    const t = await start({
      GAUNTLET_PUBLIC_URL: "https://gauntlet.example.org/api/",
      GAUNTLET_TRUSTED_PROXIES: "127.0.0.1",
    });
    expect(await serversOf(t, FORWARDED)).toBe("https://gauntlet.example.org/api");
    expect(await serversOf(t, HOSTILE)).toBe("https://gauntlet.example.org/api");
  });
});
