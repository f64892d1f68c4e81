// A hosted play session end to end: GridRush's player client is uploaded as the coworld's play
// module, a person starts a session against a baseline, headless Chromium opens `join_url`,
// the page plays its seat through the server's relay and a runner process, and the move made
// in the page is in the game's replay. Debian's chromium with playwright-core.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { HostedGameSession, PlayModule, PlaySession } from "@gauntlet/core";

import { startBrowserPlay, type BrowserPlay } from "../../testing/browser-play.ts";
import {
  createHostedDuel,
  joinHostedGame,
  PEOPLE_PACED_GAME,
  uploadGridrushPlayModule,
} from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import type { RunnerProcess } from "../../testing/runner-process.ts";
import type { TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let t: TestServer;
let browser: Browser;
let runner: RunnerProcess;
let play: BrowserPlay;

beforeAll(async () => {
  play = await startBrowserPlay("play-e2e");
  ({ t, runner, browser } = play);
}, 120_000);

afterAll(async () => {
  await play?.close();
}, 30_000);

/** The page's failed loads and errors, as they happen. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  // The browser asks for /favicon.ico on its own; every other load must succeed.
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico"))
      problems.push(`${r.status()} ${r.url()}`);
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

/** Waits for the first turn: it arrives once the runner has started the game and relayed the seat. */
async function firstTurn(page: Page, problems: string[]): Promise<void> {
  await page
    .waitForSelector("body[data-turn='0']", { timeout: 120_000 })
    .catch((error: unknown) => {
      throw new Error(
        `no turn reached the page: ${(error as Error).message}\nconsole: ${problems.join("\n")}\nrunner: ${runner.output().slice(-3000)}`,
      );
    });
}

describe("a hosted play session in the browser", () => {
  it("loads GridRush's client from join_url, and a move made in the page reaches the game", async () => {
    const tl = await createTestLeague(t);
    const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
    const upload = await uploadGridrushPlayModule(t.url, tl, "player_client");
    expect(upload.status).toBe(201);
    const module = (await upload.json()) as PlayModule;

    const api = client(t.url, tl.commissioner.token);
    const created = await api.post<PlaySession>("/v2/play-sessions", {
      coworld_id: tl.coworldId,
      opponents: [greedy.policyVersionId],
      variant_id: "duel-small",
      // A person needs time: each turn waits up to 10 s for the page's move.
      game_config_overrides: PEOPLE_PACED_GAME,
    });
    expect(created.status, created.text).toBe(201);
    const session = created.body;
    expect(session).toMatchObject({ status: "waiting", human_position: 0 });
    expect(session.join_url).toContain(`/v2/play-modules/${module.id}/files/index.html#ws=`);

    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(session.join_url ?? "");
    await expect(page.getByRole("heading", { name: "GridRush" }).isVisible()).resolves.toBe(true);
    await firstTurn(page, problems);
    // The opponent is called by its player's name, the person "you" (not "seat 1").
    await page.waitForSelector("body[data-players='you · Greedy']", { timeout: 30_000 });
    expect(await page.locator("#scores").textContent()).toMatch(/^you: \d+ · Greedy: \d+$/);
    // The legend says which square is the person's: theirs first, outlined as on the board.
    await page.waitForSelector("body[data-legend='you (outlined in black) Greedy a coin']");
    const mine = page.getByRole("list", { name: "legend" }).locator("li").first();
    expect(await mine.textContent()).toBe(" you (outlined in black)");
    // Its swatch is the one the page's stylesheet outlines in black, as the square on the board.
    expect(await mine.locator(".swatch").getAttribute("class")).toBe("swatch mine");
    await page.getByTitle("east (→ or D)").click();
    expect(await page.locator("body").getAttribute("data-last-move")).toBe("0:E");
    await page.waitForSelector("body[data-ended='true']", { timeout: 120_000 });
    expect(await page.locator("#status").textContent()).toMatch(
      /^Game over \(.+\): (you won|Greedy won|a tie)\. Scores you \d+, Greedy \d+\.$/,
    );
    expect(problems).toEqual([]);

    const ended = await eventually("the session to end", async () => {
      const read = (await api.get<PlaySession>(`/v2/play-sessions/${session.id}`)).body;
      return ["completed", "failed", "cancelled"].includes(read.status) ? read : null;
    });
    expect(ended.status, runner.output().slice(-3000)).toBe("completed");
    expect(ended.join_url).toBeNull();
    const replay = await api.get<string>(
      `/v2/episode-requests/${session.episode_request_id}/artifacts/replay`,
    );
    const turns = replay.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; turn?: number; moves?: string[] })
      .filter((entry) => entry.type === "turn");
    expect(turns[0]?.moves?.[0], replay.text).toBe("E");

    // Another user cannot read the session, and a wrong token cannot join a seat.
    const other = await t.newUser();
    expect((await client(t.url, other.token).get(`/v2/play-sessions/${session.id}`)).status).toBe(
      404,
    );
  }, 300_000);

  it("a hosted game: a person joins from join_url in the page, a program takes the other slot, and the page's move reaches the game", async () => {
    const tl = await createTestLeague(t);
    const upload = await uploadGridrushPlayModule(t.url, tl, "player_client");
    expect(upload.status).toBe(201);
    const api = client(t.url, tl.commissioner.token);
    const created = await createHostedDuel(t.url, tl, { allow_spectators: true });
    expect(created.status, created.text).toBe(200);
    const { session_id: id, join_url: joinUrl } = created.body;

    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(joinUrl);
    await page.getByRole("button", { name: "Join a slot" }).click();
    await page.waitForURL(/\/v2\/play-modules\/.+#ws=/);
    await expect(page.getByRole("heading", { name: "GridRush" }).isVisible()).resolves.toBe(true);

    // The other slot: a program over the player protocol, staying put every turn.
    const program = await joinHostedGame(t.url, id);
    expect(program.body.slot).toBe(1);
    const socket = new WebSocket(program.body.player_url);
    socket.addEventListener("message", (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as { type: string; turn?: number };
      if (message.type === "turn")
        socket.send(JSON.stringify({ type: "move", turn: message.turn, move: "stay" }));
    });

    await firstTurn(page, problems);
    // The other slot by the name the lobby shows (spectators are allowed), the person "you".
    await page.waitForSelector("body[data-players='you · Player 2']", { timeout: 30_000 });
    await page.getByTitle("east (→ or D)").click();
    await page.waitForSelector("body[data-ended='true']", { timeout: 120_000 });
    expect(await page.locator("#status").textContent()).toMatch(/Scores you \d+, Player 2 \d+\.$/);
    expect(problems).toEqual([]);

    const ended = await eventually("the hosted game to end", async () => {
      const read = (await api.get<HostedGameSession>(`/v2/coworlds/play/session/${id}`)).body;
      return ["completed", "failed", "cancelled"].includes(read.status) ? read : null;
    });
    expect(ended.status, runner.output().slice(-3000)).toBe("completed");
    expect(ended.players.map((p) => [p.slot, p.label])).toEqual([
      [0, "Player 1"],
      [1, "Player 2"],
    ]);
    const replay = await api.get<string>(
      `/v2/episode-requests/${ended.episode_request_id ?? ""}/artifacts/replay`,
    );
    const turns = replay.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; moves?: string[] })
      .filter((entry) => entry.type === "turn");
    expect(turns[0]?.moves, replay.text).toEqual(["E", "stay"]);
  }, 300_000);
});
