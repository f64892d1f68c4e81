// The web view at `/` in headless Chromium (Debian's chromium with playwright-core): a public
// league's standings, rounds and episodes as an anonymous visitor sees them, a hostile player
// name shown as text, standings that move without a reload, a replay link that opens the
// viewer, the same page under the data host's prefix, and nothing loaded from elsewhere; where a
// round's queued episodes wait; every replay link leads to a replay (the retention policy keeps
// what the page lists), and a removed or missing one to a page that says so, never to JSON.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, LeasedJob, RoundPage, TriggerRoundResponse } from "@gauntlet/core";

import { launchTestBrowser } from "../../testing/browser.ts";
import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client, http } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";
import { LISTED_EPISODES } from "./listed.ts";

const HOSTILE = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`;

let t: TestServer;
let browser: Browser;
let tl: TestLeague;
let runner: ScriptedRunner;
let hostile: TestPlayer;
let secretLeagueName: string;

async function playRound(scores: (job: { players: { display_name: string }[] }) => number[]) {
  const triggered = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  expect(triggered.status, triggered.text).toBe(200);
  const roundId = triggered.body.rounds[0]?.id;
  if (!roundId) throw new Error(`no round started: ${triggered.text}`);
  const jobs = await eventually("the round's jobs", async () => {
    const leased = await runner.lease();
    return leased.length ? leased : null;
  });
  for (const job of jobs) {
    expect(await runner.upload(job, "replay", '{"turns":[]}\n')).toBe(200);
    expect(await runner.complete(job, scores(job))).toBe(200);
  }
  await eventually("the round to settle", async () => {
    const page = (await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${tl.league.id}`)).body;
    return page.entries.find((r) => r.id === roundId)?.status === "completed";
  });
}

beforeAll(async () => {
  // The retention policy keeps no round episode's files but those the page lists.
  t = await startTestServer({
    env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_RETENTION_EPISODES: "0" },
  });
  runner = await scriptedRunner(t);
  tl = await createTestLeague(t);
  const viewer = await uploadGridrushPlayModule(t.url, tl, "replay_viewer");
  expect(viewer.status).toBe(201);
  const plain = await tl.addPlayer("Plain Jane");
  hostile = await tl.addPlayer(HOSTILE);
  await tl.submit(plain);
  await tl.submit(hostile);
  // The hostile name wins the first round, so it tops the standings.
  await playRound((job) => job.players.map((p) => (p.display_name === HOSTILE ? 3 : 1)));
  const secret = await createTestLeague(t, { public: false });
  secretLeagueName = secret.league.name;
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

interface Visit {
  page: Page;
  requests: string[];
  violations: () => Promise<string[]>;
}

async function visit(url: string): Promise<Visit> {
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => {
        window.cspViolations.push(e.violatedDirective + " " + e.blockedURI);
      });`,
  });
  await page.goto(url);
  await page.locator(`section[data-league="${tl.league.id}"] table`).first().waitFor({
    timeout: PATIENCE_MS,
  });
  return { page, requests, violations: () => page.evaluate<string[]>("window.cspViolations") };
}

const standingsText = (page: Page) =>
  page.locator(`section[data-league="${tl.league.id}"] .division table`).first().innerText();

describe("the web view at /", () => {
  it("shows the public league's standings, rounds and episodes, a hostile name as text, and loads nothing from elsewhere", async () => {
    const { page, requests, violations } = await visit(`${t.url}/`);
    const league = page.locator(`section[data-league="${tl.league.id}"]`);
    expect(await league.locator("h2").innerText()).toBe(tl.league.name);
    const standings = await standingsText(page);
    // The winner of the round first, its name exactly as chosen: characters, not markup.
    const rows = standings.split("\n").filter((line) => /^\d/.test(line));
    expect(rows[0]).toContain(HOSTILE);
    expect(rows[1]).toContain("Plain Jane");
    expect(await page.evaluate("window.pwned")).toBeUndefined();
    expect(await page.locator("img").count()).toBe(0);
    expect(await league.innerText()).toMatch(/Recent rounds[\s\S]*#1\s+completed/);
    // No round is running (the scheduler is off): the page does not call that live.
    await page.locator("#status", { hasText: "quiet: no round running" }).waitFor({
      timeout: PATIENCE_MS,
    });
    expect(await league.locator("a", { hasText: "replay" }).count()).toBeGreaterThan(0);
    // Only what anyone may see: the private league is not on the page.
    expect(await page.locator("main").innerText()).not.toContain(secretLeagueName);
    const origin = new URL(t.url).origin;
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(await violations()).toEqual([]);
    // The links a visitor needs: the reference and signing in.
    expect(await page.getByRole("link", { name: "API reference" }).getAttribute("href")).toBe(
      "/docs",
    );
    expect(await page.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      "/web/sign-in",
    );
    await page.close();
  });

  it("moves the standings without a reload when a round settles", async () => {
    const { page } = await visit(`${t.url}/`);
    expect(await standingsText(page)).toMatch(/^1\s+<img/m);
    await playRound((job) => job.players.map((p) => (p.display_name === HOSTILE ? 0 : 5)));
    await playRound((job) => job.players.map((p) => (p.display_name === HOSTILE ? 0 : 5)));
    await eventually(
      "the page to show Plain Jane on top",
      async () => /^1\s+Plain Jane/m.test(await standingsText(page)),
      PATIENCE_MS,
    );
    await page.close();
  });

  it("opens an episode's replay in the coworld's viewer from its link", async () => {
    const { page } = await visit(`${t.url}/`);
    const link = page
      .locator(`section[data-league="${tl.league.id}"] a`, { hasText: "replay" })
      .first();
    await link.click();
    await page.waitForURL(/\/v2\/play-modules\/[^/]+\/files\/index\.html#replay=/, {
      timeout: PATIENCE_MS,
    });
    await page.close();
  });

  it("works the same under the data host's prefix", async () => {
    const { page, requests } = await visit(t.dataUrl);
    expect(await standingsText(page)).toContain("Plain Jane");
    const apiReads = requests.filter((u) => new URL(u).pathname.includes("/v2/"));
    expect(apiReads.length).toBeGreaterThan(0);
    expect(apiReads.every((u) => new URL(u).pathname.startsWith("/observatory/v2/"))).toBe(true);
    expect(await page.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      "/observatory/web/sign-in",
    );
    await page.close();
  });

  it("explains a bare /cli-login, and points a browser at the prefix on the data host", async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/cli-login`);
    expect(await page.locator("body").innerText()).toContain(
      "This is where the command-line client signs in",
    );
    // The data host serves the sign-in page at its root too (softmax-cli opens it there)...
    const dataRoot = t.dataUrl.replace(/\/observatory$/, "");
    await page.goto(`${dataRoot}/cli-login`);
    expect(await page.locator("h1").innerText()).toBe("Sign in to Gauntlet");
    // ...and the rest of the service only under its prefix.
    const res = await page.goto(`${dataRoot}/docs`);
    expect(res?.status()).toBe(404);
    await page.getByRole("link", { name: "/observatory/docs" }).click();
    await page.waitForURL(/\/observatory\/docs$/, { timeout: PATIENCE_MS });
    await page.close();
  });

  describe("a league whose round waits for a runner", () => {
    /** Each round plays its one pairing this many times: two rounds list more than the page shows. */
    const PER_ROUND = 4;
    let wl: TestLeague;
    /** The job a runner took in the first test, played in the second. */
    let held: LeasedJob[] = [];
    const division = () => wl.divisions[0]?.id ?? "";
    const waitingLine = (page: Page) =>
      page.locator(`section[data-league="${wl.league.id}"] .waiting`);
    const waitingNow = async () =>
      (await client(t.url).get<RoundPage>(`/v2/rounds?division_id=${division()}`)).body.entries[0]
        ?.waiting ?? null;

    /** Plays what is queued with a replay each; answers how many. */
    async function playQueued(): Promise<number> {
      const jobs = [...held.splice(0), ...(await runner.lease())];
      for (const job of jobs) {
        expect(await runner.upload(job, "replay", '{"turns":[]}\n')).toBe(200);
        expect(await runner.complete(job, [1, 0])).toBe(200);
      }
      return jobs.length;
    }

    async function roundsCompleted(count: number) {
      await eventually(`${count} rounds to settle`, async () => {
        await playQueued();
        const rounds = (await client(t.url).get<RoundPage>(`/v2/rounds?division_id=${division()}`))
          .body.entries;
        return rounds.length === count && rounds.every((r) => r.status === "completed");
      });
    }

    it("says how many of the round's episodes are queued, where the first stands and when it should start", async () => {
      wl = await createTestLeague(t, { settings: { episodes_per_pairing: PER_ROUND } });
      expect((await uploadGridrushPlayModule(t.url, wl, "replay_viewer")).status).toBe(201);
      for (const name of ["Quinn", "Ravi"]) await wl.submit(await wl.addPlayer(name));
      const triggered = await client(t.url, wl.commissioner.token).post<TriggerRoundResponse>(
        `/v2/leagues/${wl.league.id}/trigger-round`,
        {},
      );
      expect(triggered.status, triggered.text).toBe(200);

      // No runner has leased anything: the jobs stay queued, and nothing says when they start.
      const idle = await eventually("the round to wait in the queue", waitingNow);
      expect(idle).toMatchObject({
        queued_episodes: PER_ROUND,
        running_episodes: 0,
        queue_position: 1,
        estimated_start_at: null,
      });
      let { page } = await visit(`${t.url}/`);
      expect(await waitingLine(page).innerText()).toBe(
        `round #1: ${PER_ROUND} episodes queued, first at position 1, waiting for a runner`,
      );
      await page.close();

      // Recent episodes took two minutes each (as seeded here), and a runner now plays one: the
      // next slot frees in about two minutes.
      const db = t.server.store.db;
      for (const job of await db
        .selectFrom("jobs")
        .select(["id", "updated_at"])
        .where("status", "=", "completed")
        .execute())
        await db
          .updateTable("jobs")
          .set({ leased_at: new Date(Date.parse(job.updated_at) - 120_000).toISOString() })
          .where("id", "=", job.id)
          .execute();
      held = await runner.lease(1);
      expect(held).toHaveLength(1);
      const busy = await waitingNow();
      expect(busy).toMatchObject({
        queued_episodes: PER_ROUND - 1,
        running_episodes: 1,
        queue_position: 1,
      });
      const startsIn = Date.parse(busy?.estimated_start_at ?? "") - Date.now();
      expect(startsIn).toBeGreaterThan(60_000);
      expect(startsIn).toBeLessThanOrEqual(120_000);
      ({ page } = await visit(`${t.url}/`));
      expect(await waitingLine(page).innerText()).toMatch(
        new RegExp(
          `^round #1: ${PER_ROUND - 1} episodes queued, first at position 1, starts in about [12] min$`,
        ),
      );
      // The other league's division has nothing waiting: no line.
      expect(await page.locator(`section[data-league="${tl.league.id}"] .waiting`).count()).toBe(0);
      await page.close();
    });

    it("leads every replay link on the page to a replay, and a removed or missing one to a page that says so", async () => {
      // The leased job is played with the rest; a second round pushes the first's episodes past
      // what the page lists, and the retention policy (keeping 0) removes those.
      await roundsCompleted(1);
      const again = await client(t.url, wl.commissioner.token).post<TriggerRoundResponse>(
        `/v2/leagues/${wl.league.id}/trigger-round`,
        {},
      );
      expect(again.status, again.text).toBe(200);
      await roundsCompleted(2);
      await t.server.retention.run();
      const all = (
        await client(t.url).get<{ entries: EpisodeRequest[] }>(
          `/v2/episode-requests?division_id=${division()}&limit=100`,
        )
      ).body.entries;
      expect(all).toHaveLength(2 * PER_ROUND);
      const removed = all.slice(LISTED_EPISODES);
      expect(removed.length).toBeGreaterThan(0);
      for (const e of removed) expect(e.artifacts_expired_at, e.id).not.toBeNull();

      const { page } = await visit(`${t.url}/`);
      const links: string[] = [];
      for (const a of await page.locator("main a", { hasText: "replay" }).all())
        links.push(new URL((await a.getAttribute("href")) ?? "", t.url).href);
      // Both leagues' listed episodes: the first league's three and this one's newest.
      expect(links.length).toBe(3 + LISTED_EPISODES);
      for (const href of links) {
        const res = await page.goto(href);
        expect(res?.status(), href).toBe(200);
        expect(page.url(), href).toMatch(/\/v2\/play-modules\/[^/]+\/files\/index\.html#replay=/);
        expect(res?.headers()["content-type"], href).toMatch(/^text\/html/);
      }

      // A link the page showed before the policy removed its replay (or one kept from elsewhere).
      const [gone] = removed;
      const goneLink = `${t.url}/v2/episode-requests/${gone?.id ?? ""}/replay-viewer`;
      const res = await page.goto(goneLink);
      expect(res?.status()).toBe(410);
      expect(res?.headers()["content-type"]).toMatch(/^text\/html/);
      const text = await page.locator("body").innerText();
      expect(text).toContain("This replay was removed");
      expect(text).toContain(
        `removed by the server's retention policy on ${(gone?.artifacts_expired_at ?? "").slice(0, 10)}`,
      );
      expect(text).not.toContain('"detail"');
      await page.getByRole("link", { name: "Back to the leagues" }).click();
      await page.locator(`section[data-league="${wl.league.id}"] table`).first().waitFor({
        timeout: PATIENCE_MS,
      });

      // Under the data host's prefix the way back stays under it.
      await page.goto(`${t.dataUrl}/v2/episode-requests/${gone?.id ?? ""}/replay-viewer`);
      expect(
        await page.getByRole("link", { name: "Back to the leagues" }).getAttribute("href"),
      ).toBe("/observatory");

      // An episode that is not there: a page too, not a JSON body.
      const missing = await page.goto(
        `${t.url}/v2/episode-requests/ereq_00000000-0000-4000-8000-000000000000/replay-viewer`,
      );
      expect(missing?.status()).toBe(404);
      expect(await page.locator("h1").innerText()).toBe("No such episode");
      await page.close();

      // API clients keep the JSON error the contract names.
      for (const accept of [undefined, "application/json"]) {
        const api = await http("GET", goneLink, accept ? { headers: { accept } } : {});
        expect(api.status).toBe(410);
        expect(api.headers.get("content-type")).toMatch(/^application\/json/);
        expect(JSON.parse(api.text)).toMatchObject({ detail: { type: "artifacts_expired" } });
      }
    });
  });
});
