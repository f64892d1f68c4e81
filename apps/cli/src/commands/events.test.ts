// `gauntlet events` without a process: parsing, the feed as a table and as JSON, and --follow
// printing each live event's own time and headline, against a real server on a free port.
import { describe, expect, it } from "vitest";

import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../test/cli-server.ts";
import { memoryIO } from "../io.ts";
import { liveLine, runEvents } from "./events.ts";

let fixture: TestLeague;

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server);
  await fixture.submit(await fixture.addPlayer("Alpha"));
  return fixture.commissioner.token;
});
const { gauntlet, sdk } = cli;

describe("gauntlet events", () => {
  it.each([
    [
      ["events"],
      "gauntlet: --league: give a league (its name or id), or choose one with `gauntlet league use NAME`",
    ],
    [
      ["events", "--league", "league_00000000-0000-4000-8000-000000000000", "--limit", "0"],
      "--limit: expected a positive whole number, got '0'",
    ],
  ])("%j is refused in one line with exit 2", async (args, message) => {
    const result = await gauntlet(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("prints the feed: a table for people, the API's answer with --json", async () => {
    const table = await gauntlet(["events", "--league", fixture.league.id]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^TIME\s+EVENT\s+HEADLINE\n[\s\S]*Alpha entered/);
    const json = await gauntlet(["events", "--league", fixture.league.id, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(
      await sdk().competitionEvents.list({ league_id: fixture.league.id, limit: 20 }),
    );
  });

  it("prints history oldest first and live events after it, in the same columns", async () => {
    const io = memoryIO();
    const stop = new AbortController();
    const following = runEvents(
      { leagueId: fixture.league.id, limit: 20, follow: true, json: false, signal: stop.signal },
      { io, client: sdk() },
    );
    await expect.poll(() => io.stderr(), { timeout: 10_000 }).toContain("following live events");
    const feed = await sdk().competitionEvents.list({ league_id: fixture.league.id, limit: 20 });
    await fixture.submit(await fixture.addPlayer("Delta"));
    await expect.poll(() => io.stdout(), { timeout: 10_000 }).toContain("Delta entered");
    stop.abort();
    await following;
    const [header, ...rows] = io.stdout().trimEnd().split("\n");
    const headlineAt = header?.indexOf("HEADLINE") ?? -1;
    expect(headlineAt).toBeGreaterThan(0);
    // Every line, history and live, has its headline under HEADLINE.
    for (const row of rows)
      expect(row.slice(0, headlineAt)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}\S+ +$/);
    // One order, oldest first: the history is the API's answer (newest first) reversed, and the
    // live event follows it.
    const headlines = rows.map((row) => row.slice(headlineAt));
    expect(headlines.slice(0, feed.length)).toEqual(feed.map((e) => e.headline).reverse());
    expect(headlines.findIndex((h) => h.startsWith("Delta entered"))).toBeGreaterThanOrEqual(
      feed.length,
    );
  });

  it("--follow prints each live event's time and headline, not its topic", async () => {
    const io = memoryIO();
    const stop = new AbortController();
    const following = runEvents(
      { leagueId: fixture.league.id, limit: 1, follow: true, json: false, signal: stop.signal },
      { io, client: sdk() },
    );
    // Wait until subscribed, then make an event: a new member of the league.
    await expect.poll(() => io.stderr(), { timeout: 10_000 }).toContain("following live events");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fixture.submit(await fixture.addPlayer("Gamma"));
    await expect
      .poll(() => io.stdout(), { timeout: 10_000 })
      .toMatch(/\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}\S+ +Gamma entered /);
    stop.abort();
    await following;
    expect(io.stdout()).not.toContain(`league:${fixture.league.id}`);
  });

  it("liveLine falls back to the message's time and topic when the data has none", () => {
    expect(
      liveLine({ seq: 1, topic: "league:x", type: "ping", data: null, at: "2026-01-02T03:04:05Z" }),
    ).toMatch(/^2026-01-02 \d\d:04:05 {2}ping {2}league:x$/);
    expect(
      liveLine(
        { seq: 1, topic: "league:x", type: "ping", data: null, at: "2026-01-02T03:04:05Z" },
        10,
      ),
    ).toMatch(/^2026-01-02 \d\d:04:05 {2}ping {8}league:x$/);
  });
});
