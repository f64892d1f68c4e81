// `bench web` (issue 43): how soon a person sees a division's standings in the web view, beside
// the JSON read of the same standings. The server runs in this process with a league of four
// players and one played round; headless Chromium opens the division's page (and `/`) as an
// anonymous visitor would. It prints, median and worst of BENCH_RUNS each:
//
//  1. the JSON read: GET /v2/divisions/{id}/leaderboard, parsed;
//  2. first paint with standings: from `page.goto` to every player's row in the standings table
//     (a new page each run; the browser's cache is warm after the first, as a returning visitor's);
//  3. the same for `/`;
//  4. the division's page again for a visitor signed in to the web view (its script first asks
//     `/web/session`, then sends the CSRF header with every read);
//  and, once, the first request's cost of bundling the pages' script (esbuild, at first serve).
//
//   node bench/web/run.ts          BENCH_RUNS=30 node bench/web/run.ts
//
// Not a test: numbers depend on the machine.
import { performance } from "node:perf_hooks";

import type { LeasedJob, TriggerRoundResponse } from "@gauntlet/core";
import {
  client,
  createTestLeague,
  launchTestBrowser,
  scriptedRunner,
  startTestServer,
} from "@gauntlet/server/testing";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const PLAYERS = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"];

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const worst = sorted[sorted.length - 1] ?? NaN;
  return `median ${median.toFixed(1).padStart(7)} ms   worst ${worst.toFixed(1).padStart(7)} ms`;
}

const t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
const browser = await launchTestBrowser();
try {
  const runner = await scriptedRunner(t);
  const owner = await t.newUser();
  const tl = await createTestLeague(t, { commissioner: owner });
  for (const name of PLAYERS) await tl.submit(await tl.addPlayer(name));
  const triggered = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  if (triggered.status !== 200) throw new Error(triggered.text);
  let jobs: LeasedJob[] = [];
  for (let i = 0; i < 200 && jobs.length === 0; i++) {
    jobs = await runner.lease();
    if (!jobs.length) await new Promise((r) => setTimeout(r, 100));
  }
  for (const job of jobs)
    await runner.complete(
      job,
      job.players.map((_, i) => i),
    );
  const division = tl.divisions[0]?.id ?? "";
  const leaderboard = `${t.url}/v2/divisions/${division}/leaderboard`;
  for (let i = 0; i < 100; i++) {
    const rows = (await (await fetch(leaderboard)).json()) as unknown[] | null;
    if (rows?.length === PLAYERS.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  const bundleStart = performance.now();
  await (await fetch(`${t.url}/web.js`)).text();
  const bundleMs = performance.now() - bundleStart;

  const json: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await (await fetch(leaderboard)).json();
    json.push(performance.now() - start);
  }

  async function firstPaint(path: string, rows: string, signedIn = false): Promise<number[]> {
    const times: number[] = [];
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    if (signedIn) {
      const page = await context.newPage();
      await page.goto(`${t.url}/web/sign-in`);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password").fill("correct horse battery");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${t.url}/`);
      await page.close();
    }
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      const start = performance.now();
      await page.goto(`${t.url}${path}`, { waitUntil: "commit" });
      // The last player's row (the page's CSP forbids a string predicate; a locator needs none).
      await page
        .locator(rows)
        .nth(PLAYERS.length - 1)
        .waitFor({ timeout: 30_000 });
      times.push(performance.now() - start);
      await page.close();
    }
    await context.close();
    return times;
  }
  const divisionPage = await firstPaint(`/web/divisions/${division}`, "main table tbody tr");
  const home = await firstPaint("/", `section[data-league] .division table tbody tr`);
  const signedIn = await firstPaint(`/web/divisions/${division}`, "main table tbody tr", true);

  console.log(`bench web: ${PLAYERS.length} players, ${RUNS} runs each\n`);
  console.log(`  JSON read of the standings          ${summary(json)}`);
  console.log(`  division page, standings painted    ${summary(divisionPage)}`);
  console.log(`  home page, standings painted        ${summary(home)}`);
  console.log(`  division page, signed in            ${summary(signedIn)}`);
  console.log(
    `  first /web.js (esbuild bundle)      ${bundleMs.toFixed(1).padStart(7)} ms (once per process)`,
  );
} finally {
  await browser.close();
  await t.close();
}
