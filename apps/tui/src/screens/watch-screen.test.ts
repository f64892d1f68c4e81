// The watch screen with ink-testing-library: what it shows and what each key does.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import type { CompetitionEvent, Division, LeaderboardRow } from "@gauntlet/core";

import { division, event, league, recentRound, round, row } from "../../testing/fixtures.ts";
import { KEYS, lines, renderAt } from "../../testing/ink.ts";
import type { WatchSnapshot } from "../data/division-watch.ts";
import { progressFromEpisodes, withEpisodeSettled } from "../state/round-progress.ts";
import { nextStandings } from "../state/standings.ts";
import { WatchScreen, type WatchScreenProps } from "./watch-screen.ts";

afterEach(cleanup);

/** The standings column of a wide frame (the feed is to its right). */
const standingsColumn = (frame: string) => lines(frame).map((l) => [...l].slice(0, 69).join(""));

const spring = league({ name: "Spring League" });
const premier = division(spring, { name: "Premier", level: 1 });
const challenger = division(spring, { name: "Challenger", level: 2 });
const ada = row(1, "Ada Lovelace", {
  score: 1523.4,
  rounds_played: 7,
  recent_rounds: [recentRound(7, 1), recentRound(6, 2), recentRound(5, 3)],
});
const bo = row(2, "Bo", { score: 1502, rounds_played: 7 });
const cy = row(3, "Cy", { score: 1480.5, rounds_played: 6 });

function snapshot(overrides: Partial<WatchSnapshot> = {}): WatchSnapshot {
  let progress = progressFromEpisodes(
    round(premier, 8, { round_display: { episodes: 3 } }),
    [],
    false,
  );
  progress = withEpisodeSettled(progress, "ereq_a", false);
  return {
    standings: nextStandings(null, [ada, bo, cy]),
    pairwise: null,
    round: progress,
    feed: [
      event("player_promoted", premier, { headline: "Cy promoted to Premier" }),
      event("round_started", premier, {
        headline: "Premier: round 8 started",
        round_id: progress.round.id,
      }),
    ],
    episodes: [
      event("episode_completed", premier, {
        headline: "Episode completed: Ada Lovelace 9 vs Bo 3",
        episode_request_id: "ereq_a",
      }),
    ],
    connection: { kind: "live" },
    lastSeq: 10,
    events: 3,
    ...overrides,
  };
}

function mount(overrides: Partial<WatchScreenProps> = {}, size: [number, number] = [120, 37]) {
  const opened: { players: LeaderboardRow[]; events: CompetitionEvent[]; divisions: Division[] } = {
    players: [],
    events: [],
    divisions: [],
  };
  const props: WatchScreenProps = {
    league: spring,
    division: premier,
    divisions: [premier, challenger],
    snapshot: snapshot(),
    width: size[0],
    height: size[1],
    now: Date.parse("2026-01-01T12:00:30.000Z"),
    active: true,
    onOpenPlayer: (r) => opened.players.push(r),
    onOpenEvent: (e) => opened.events.push(e),
    onSwitchDivision: (d) => opened.divisions.push(d),
    ...overrides,
  };
  const screen = renderAt(h(WatchScreen, props), size[0], size[1]);
  return { screen, opened, props };
}

describe("the watch screen", () => {
  it("shows the round, the standings with names, ratings and recent results, the feed and the latest episodes", async () => {
    const { screen } = mount();
    const frame = await screen.waitFor("the standings", (f) => f.includes("Ada Lovelace"));
    expect(frame).toMatch(/Round 8 running .* 1\/3 episodes · started 30s ago/);
    const adaLine = standingsColumn(frame).find((l) => l.includes("Ada Lovelace")) ?? "";
    expect(adaLine).toMatch(/›1\s+·\s+Ada Lovelace\s+1523\.4\s+7\s+▁▅█/);
    expect(frame).toContain("Cy promoted to Premier");
    expect(frame).toContain("Latest episodes");
    expect(frame).toContain("Ada Lovelace 9 vs Bo 3");
    expect(frame).toContain("Standings · Premier  1/2 ← →");
  });

  it("shows what beats what below the standings where it fits, and not on a short terminal", async () => {
    const pairwise = {
      division_id: premier.id,
      players: [ada, bo, cy].map((r) => ({ player_id: r.player_id, player_name: r.player_name })),
      episodes: 4,
      cells: [
        {
          player_id: ada.player_id,
          opponent_id: bo.player_id,
          wins: 3,
          losses: 1,
          draws: 0,
          episodes: 4,
          win_rate: 0.75,
        },
        {
          player_id: bo.player_id,
          opponent_id: ada.player_id,
          wins: 1,
          losses: 3,
          draws: 0,
          episodes: 4,
          win_rate: 0.25,
        },
      ],
    };
    const { screen } = mount({ snapshot: snapshot({ pairwise }) });
    const frame = await screen.waitFor("the matrix", (f) => f.includes("What beats what"));
    expect(frame).toContain("4 episodes · win % · count");
    expect(frame).toMatch(/1 Ada Lovelac\s+·\s+75%·4/);
    expect(frame).toMatch(/2 Bo\s+25%·4\s+·\s+–/);
    expect(frame).toContain("Latest episodes");
    const { screen: short } = mount({ snapshot: snapshot({ pairwise }) }, [120, 16]);
    expect(await short.waitFor("the standings", (f) => f.includes("Ada"))).not.toContain(
      "What beats what",
    );
  });

  it("says the standings are settled when every row's rank is", async () => {
    const settledRows = [ada, bo, cy].map((r) => ({
      ...r,
      rank_range: { best: r.rank, worst: r.rank },
      settled: true,
    }));
    const { screen } = mount({
      snapshot: snapshot({ standings: nextStandings(null, settledRows) }),
    });
    const frame = await screen.waitFor("the standings", (f) => f.includes("Ada Lovelace"));
    expect(frame).toContain("Standings · Premier  settled · 1/2 ← →");
    const { screen: open } = mount();
    expect(await open.waitFor("the standings", (f) => f.includes("Ada"))).not.toContain("settled");
  });

  it("shows movement arrows once the standings have changed", async () => {
    const moved = nextStandings(nextStandings(null, [ada, bo, cy]), [
      { ...cy, rank: 1, score: 1530 },
      { ...ada, rank: 2 },
      { ...bo, rank: 3 },
    ]);
    const { screen } = mount({ snapshot: snapshot({ standings: moved }) });
    const frame = await screen.waitFor("the arrows", (f) => f.includes("▲2"));
    expect(standingsColumn(frame).find((l) => l.includes("Cy"))).toMatch(/1\s+▲2\s+Cy/);
    expect(standingsColumn(frame).find((l) => l.includes("Bo"))).toMatch(/3\s+▼1\s+Bo/);
  });

  it("moves the selection with j/k and the arrows, and opens the selected player with Enter", async () => {
    const { screen, opened } = mount();
    await screen.waitFor("the standings", (f) => f.includes("Ada Lovelace"));
    await screen.press("j", KEYS.down);
    await screen.waitFor("Cy selected", (f) => /›3/.test(f));
    await screen.press("k", KEYS.enter);
    await screen.waitFor("the player opened", () => opened.players.length === 1);
    expect(opened.players[0]?.player_name).toBe("Bo");
  });

  it("moves between panes with Tab (and back with Shift+Tab) and opens a feed event with Enter", async () => {
    const { screen, opened } = mount();
    await screen.waitFor("the standings", (f) => f.includes("Ada Lovelace"));
    // Standings → latest episodes → feed.
    await screen.press(KEYS.tab, KEYS.enter);
    await screen.waitFor("the episode opened", () => opened.events.length === 1);
    expect(opened.events[0]?.episode_request_id).toBe("ereq_a");
    await screen.press(KEYS.tab, "j", KEYS.enter);
    await screen.waitFor("the feed event opened", () => opened.events.length === 2);
    expect(opened.events[1]?.event_type).toBe("round_started");
    await screen.press(KEYS.shiftTab, KEYS.shiftTab, KEYS.enter);
    await screen.waitFor("a player opened", () => opened.players.length === 1);
    expect(opened.players[0]?.player_name).toBe("Ada Lovelace");
  });

  it("filters the standings with /, keeps the filter with Enter and clears it with Esc", async () => {
    const { screen, opened } = mount();
    await screen.waitFor("the standings", (f) => f.includes("Ada Lovelace"));
    await screen.press("/", "c", "y");
    let frame = await screen.waitFor("the filter", (f) => f.includes("/ cy▏"));
    const standings = standingsColumn(frame).slice(0, 9).join("\n");
    expect(standings).not.toContain("Ada Lovelace");
    expect(standings).toContain("Cy");
    await screen.press(KEYS.enter, KEYS.enter);
    await screen.waitFor("the filtered player opened", () => opened.players.length === 1);
    expect(opened.players[0]?.player_name).toBe("Cy");
    await screen.press("/", KEYS.escape);
    frame = await screen.waitFor(
      "the filter cleared",
      (f) => f.includes("Ada Lovelace") && !f.includes("/ cy"),
    );
    expect(frame).toContain("Bo");
  });

  it("switches division with ← → and [ ]", async () => {
    const { screen, opened } = mount();
    await screen.waitFor("the standings", (f) => f.includes("Ada Lovelace"));
    await screen.press(KEYS.right, KEYS.left, "]");
    await screen.waitFor("two switches", () => opened.divisions.length === 2);
    // ← from the first division goes nowhere.
    expect(opened.divisions.map((d) => d.name)).toEqual(["Challenger", "Challenger"]);
  });

  it("at 80×24 stacks the panes and keeps every standings row", async () => {
    const { screen } = mount({}, [80, 21]);
    const frame = await screen.waitFor("the standings", (f) => f.includes("Ada Lovelace"));
    for (const name of ["Ada Lovelace", "Bo", "Cy"]) expect(frame).toContain(name);
    expect(frame).not.toContain("Latest episodes");
    expect(frame).toContain("Feed");
    expect(Math.max(...lines(frame).map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(lines(frame).length).toBeLessThanOrEqual(21);
  });

  it("says when the standings are loading or empty, and when no round has started", async () => {
    const loading = mount({ snapshot: snapshot({ standings: null, round: null }) });
    const frame = await loading.screen.waitFor("loading", (f) => f.includes("Loading standings"));
    expect(frame).toContain("No round yet");
    loading.screen.unmount();
    const empty = mount({ snapshot: snapshot({ standings: nextStandings(null, null) }) });
    await empty.screen.waitFor("empty", (f) => f.includes("No standings yet"));
  });
});
