// Live play beside league play, with the real embedded runner (`gauntlet-runner` started as
// `gauntlet-server start` starts it, at capacity 1): a round says why it waits; a person's game
// in progress never holds the slot a league round needs; a game starts only once its person is
// connected, and one whose person never comes fails `player_never_connected`; a finished
// session's page says it is over, with its result and a replay link, and offers no moves.
// Debian's chromium with playwright-core.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, PlaySession, Round, RoundPage } from "@gauntlet/core";

import { launchTestBrowser } from "../../testing/browser.ts";
import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually, type TestLeague } from "../../testing/test-league.ts";
import { startEmbeddedRunner, type EmbeddedRunner } from "../embedded/embedded-runner.ts";

let t: TestServer;
let browser: Browser;
let runner: EmbeddedRunner | null = null;
let runnerLog = "";
const workDir = mkdtempSync(join(tmpdir(), "gauntlet-live-play-"));

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER_TICK_MS: "50" } });
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  delete process.env.GAUNTLET_PLAY_JOIN_TIMEOUT_SECONDS;
  await browser?.close();
  await runner?.stop();
  await t?.close();
  rmSync(workDir, { recursive: true, force: true });
}, 60_000);

async function startRunner(): Promise<void> {
  runner = await startEmbeddedRunner({
    serverUrl: t.url,
    token: () => t.machineToken("embedded"),
    workDir,
    graceSeconds: 1,
    capacity: 1,
    write: (line) => (runnerLog += line),
  });
}

async function runningRounds(divisionId: string): Promise<Round[]> {
  return (await client(t.url).get<RoundPage>(`/v2/rounds?division_id=${divisionId}&status=running`))
    .body.entries;
}

async function uploadModule(
  tl: TestLeague,
  kind: "player_client" | "replay_viewer",
): Promise<void> {
  const res = await uploadGridrushPlayModule(t.url, tl, kind);
  expect(res.status).toBe(201);
}

async function playSession(tl: TestLeague, gameConfig: Record<string, unknown>) {
  await uploadModule(tl, "player_client");
  const greedy = await tl.addPlayer("Opponent", { baseline: "greedy" });
  const api = client(t.url, tl.commissioner.token);
  const created = await api.post<PlaySession>("/v2/play-sessions", {
    coworld_id: tl.coworldId,
    opponents: [greedy.policyVersionId],
    variant_id: "duel-small",
    game_config_overrides: gameConfig,
  });
  expect(created.status, created.text).toBe(201);
  const read = () => api.get<PlaySession>(`/v2/play-sessions/${created.body.id}`);
  return { session: created.body, read, api };
}

async function open(url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

describe("live play beside league play (embedded runner, capacity 1)", () => {
  it("a round says it waits for a runner, with its place in the queue, until one plays it", async () => {
    const tl = await createTestLeague(t);
    const [division] = tl.divisions;
    if (!division) throw new Error("no division");
    for (const baseline of ["greedy", "random"] as const)
      await tl.submit(await tl.addPlayer(baseline, { baseline }));
    const waiting = await eventually("a running round", async () => {
      const [round] = await runningRounds(division.id);
      return round?.waiting ? round : null;
    });
    expect(waiting.waiting).toMatchObject({
      reason: "waiting for a runner",
      running_episodes: 0,
      queue_position: 1,
    });
    expect(waiting.waiting?.queued_episodes).toBeGreaterThan(0);

    await startRunner();
    const done = await eventually(`the round to complete\n${runnerLog.slice(-2000)}`, async () => {
      const read = await client(t.url).get<Round>(`/v2/rounds/${waiting.id}`);
      return read.body.status === "completed" ? read.body : null;
    });
    expect(done.waiting).toBeNull();
  }, 240_000);

  it("a person's game in progress does not hold the runner's only batch slot: a league round completes meanwhile", async () => {
    const tl = await createTestLeague(t);
    const [division] = tl.divisions;
    if (!division) throw new Error("no division");
    // Forty turns of ten seconds each for a person who never moves: the game outlasts the test.
    const { session, read, api } = await playSession(tl, {
      turns: 40,
      turn_timeout_ms: 10_000,
      connect_timeout_ms: 60_000,
    });
    const page = await open(session.join_url ?? "");
    await page.waitForSelector("body[data-turn='0']", { timeout: 120_000 }).catch(() => {
      throw new Error(`the game never started\n${runnerLog.slice(-3000)}`);
    });
    expect((await read()).body.status).toBe("playing");

    for (const baseline of ["greedy", "random"] as const)
      await tl.submit(await tl.addPlayer(baseline, { baseline }));
    const completed = await eventually(
      `a league round to complete beside the live game\n${runnerLog.slice(-3000)}`,
      async () => {
        const rounds = await client(t.url).get<RoundPage>(
          `/v2/rounds?division_id=${division.id}&status=completed`,
        );
        return rounds.body.entries[0] ?? null;
      },
    );
    expect(completed.status).toBe("completed");
    // The person's game is still on.
    expect((await read()).body.status).toBe("playing");
    await api.post(`/v2/coworlds/play/session/${session.id}/terminate`, { reason: "test over" });
    await page.close();
  }, 240_000);

  it("a game whose person never connects does not start, and fails player_never_connected; its page says it is over", async () => {
    process.env.GAUNTLET_PLAY_JOIN_TIMEOUT_SECONDS = "3";
    try {
      const tl = await createTestLeague(t);
      const { session, read, api } = await playSession(tl, { turns: 3 });
      const ended = await eventually(`the session to fail\n${runnerLog.slice(-3000)}`, async () => {
        const now = (await read()).body;
        return ["completed", "failed", "cancelled"].includes(now.status) ? now : null;
      });
      expect(ended).toMatchObject({ status: "failed", error_type: "player_never_connected" });
      expect(ended.error).toContain("never connected within the 3 s join timeout");
      const episode = await api.get<EpisodeRequest>(
        `/v2/episode-requests/${session.episode_request_id ?? ""}`,
      );
      expect(episode.body).toMatchObject({
        status: "failed",
        error_type: "player_never_connected",
      });
      // The game never ran: no replay was made.
      const replay = await api.get(
        `/v2/episode-requests/${session.episode_request_id ?? ""}/artifacts/replay`,
      );
      expect(replay.status).toBe(404);

      const page = await open(session.join_url ?? "");
      await page.waitForSelector("body[data-over='failed']", { timeout: 30_000 });
      expect(await page.locator("#status").textContent()).toBe(
        "This game is over (failed): a player never connected.",
      );
      expect(await page.locator("#pad").isVisible()).toBe(false);
      await page.close();
    } finally {
      delete process.env.GAUNTLET_PLAY_JOIN_TIMEOUT_SECONDS;
    }
  }, 120_000);

  it("a finished game's page says it is over, with the result and a link to the replay, and no move buttons", async () => {
    const tl = await createTestLeague(t);
    await uploadModule(tl, "replay_viewer");
    const { session, read } = await playSession(tl, {
      turns: 2,
      turn_timeout_ms: 500,
      connect_timeout_ms: 60_000,
    });
    const playing = await open(session.join_url ?? "");
    await playing.waitForSelector("body[data-over='completed']", { timeout: 120_000 }).catch(() => {
      throw new Error(`the game did not end\n${runnerLog.slice(-3000)}`);
    });
    await playing.close();
    expect((await read()).body.status).toBe("completed");

    // Opened again after the end: over at once, not "waiting for the game".
    const page = await open(session.join_url ?? "");
    await page.waitForSelector("body[data-over='completed']", { timeout: 30_000 });
    expect(await page.locator("#status").textContent()).toMatch(
      /^This game is over: (you won|Opponent won|a tie)\. Scores you \d+, Opponent \d+\.$/,
    );
    expect(await page.locator("#pad").isVisible()).toBe(false);
    const link = page.getByRole("link", { name: "Watch the replay" });
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toContain("/files/");
    expect(href).toContain("#replay=");
    const replay = await fetch(decodeURIComponent(href.split("#replay=")[1] ?? ""));
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain('"type":"header"');
    await page.close();
  }, 240_000);
});
