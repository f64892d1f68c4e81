// The SDK's own cost per call: the same GET through `client.<method>()` and through a bare
// `fetch` + `response.json()`, one after the other, against the same endpoint. The
// difference is what the SDK adds (building the request, ky, reading the body, checking it
// against the contract's schema, reading the budget headers). The schema check alone is
// measured too, to show its share.
//
//   node bench/sdk/run.ts            a trivial node:http server answering GET /v2/leagues/{id}
//   node bench/sdk/run.ts --real     also the real server (apps/server, temporary SQLite store)
//   BENCH_CALLS=5000 node bench/sdk/run.ts
//
// Not a test: numbers depend on the machine. Run on an otherwise idle machine.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";

import { contract } from "@gauntlet/core";
import { createClient } from "@gauntlet/sdk";
import { sampleLeague } from "@gauntlet/server/fixtures";

const CALLS = Number(process.env.BENCH_CALLS ?? 3_000);
const WARMUP = 500;
const LEAGUE_ID = "league_00000000-0000-4000-8000-000000000001";

const league = sampleLeague({
  id: LEAGUE_ID,
  description: "A league",
  settings: { ladder: { ranking: "elo" } },
});

interface Timing {
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

function summarize(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 1000;
  return {
    meanUs: (samples.reduce((a, b) => a + b, 0) / samples.length) * 1000,
    p50Us: at(0.5),
    p99Us: at(0.99),
  };
}

/** Alternates the two so that both see the same machine state; returns per-call times. */
async function compare(
  bare: () => Promise<unknown>,
  sdk: () => Promise<unknown>,
): Promise<{ bare: Timing; sdk: Timing }> {
  for (let i = 0; i < WARMUP; i++) {
    await bare();
    await sdk();
  }
  const bareTimes: number[] = [];
  const sdkTimes: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    await bare();
    bareTimes.push(performance.now() - t);
    t = performance.now();
    await sdk();
    sdkTimes.push(performance.now() - t);
  }
  return { bare: summarize(bareTimes), sdk: summarize(sdkTimes) };
}

function report(label: string, r: { bare: Timing; sdk: Timing }): void {
  const f = (n: number) => n.toFixed(0).padStart(6);
  console.log(`\n${label}  (${CALLS} sequential calls each, after ${WARMUP} warm-up)`);
  console.log(`                 mean µs   p50 µs   p99 µs`);
  console.log(`  bare fetch      ${f(r.bare.meanUs)}   ${f(r.bare.p50Us)}   ${f(r.bare.p99Us)}`);
  console.log(`  SDK             ${f(r.sdk.meanUs)}   ${f(r.sdk.p50Us)}   ${f(r.sdk.p99Us)}`);
  console.log(
    `  SDK overhead    ${f(r.sdk.meanUs - r.bare.meanUs)}   ${f(r.sdk.p50Us - r.bare.p50Us)}   (per call)`,
  );
}

async function trivialServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const body = JSON.stringify(league);
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "x-request-id": "bench" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function schemaOnly(): number {
  const schema = contract.getLeague.response;
  const n = 20_000;
  for (let i = 0; i < 2_000; i++) schema.parse(league);
  const t = performance.now();
  for (let i = 0; i < n; i++) schema.parse(league);
  return ((performance.now() - t) / n) * 1000;
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"} × ${cpus().length}`);
  const trivial = await trivialServer();
  try {
    const client = createClient({ env: {}, useSavedCredentials: false, baseUrl: trivial.url });
    const url = `${trivial.url}/v2/leagues/${LEAGUE_ID}`;
    const result = await compare(
      async () => (await fetch(url, { headers: { accept: "application/json" } })).json(),
      () => client.leagues.get({ league_id: LEAGUE_ID }),
    );
    report("trivial node:http server, GET /v2/leagues/{id} (a League, 700 bytes)", result);
  } finally {
    await trivial.close();
  }
  console.log(
    `\n  of which the contract's schema check (League.parse): ${schemaOnly().toFixed(1)} µs per call`,
  );

  if (process.argv.includes("--real")) {
    const { startTestServer } = await import("@gauntlet/server/testing");
    // Budgets off: the bench makes more calls than a user's minute allows.
    const real = await startTestServer({ env: { GAUNTLET_RATE_LIMIT_MODE: "off" } });
    try {
      const admin = createClient({
        env: {},
        useSavedCredentials: false,
        baseUrl: real.url,
        token: real.adminToken,
      });
      const created = await admin.games.create({ body: { name: "Bench" } });
      const made = await admin.leagues.create({
        body: { name: "Bench", game_id: created.id, public: true },
      });
      const url = `${real.url}/v2/leagues/${made.id}`;
      const headers = { accept: "application/json", authorization: `Bearer ${real.adminToken}` };
      const result = await compare(
        async () => (await fetch(url, { headers })).json(),
        () => admin.leagues.get({ league_id: made.id }),
      );
      report("real server (SQLite), GET /v2/leagues/{id} with a token", result);
    } finally {
      await real.close();
    }
  }
}

await main();
