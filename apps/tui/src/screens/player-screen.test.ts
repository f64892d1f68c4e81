// The player detail with ink-testing-library.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import type { EpisodeRequest } from "@gauntlet/core";

import { division, episode, league, recentRound, row } from "../../testing/fixtures.ts";
import { KEYS, renderAt } from "../../testing/ink.ts";
import { Notices } from "../data/notices.ts";
import { PlayerScreen } from "./player-screen.ts";

afterEach(cleanup);

const premier = division(league(), { name: "Premier" });
const [seventh, sixth] = [recentRound(7, 1), recentRound(6, 2)];
// Ada came up from Challenger: its round 5 there is still among her recent rounds.
const challengerFifth = recentRound(5, 1);
const premierRounds = new Set([seventh.id, sixth.id]);
const ada = row(1, "Ada", {
  score: 1523.4,
  score_interval: { low: 1480.2, high: 1566.6 },
  form: 1510,
  rounds_played: 7,
  episodes_played: 14,
  recent_rounds: [seventh, sixth, challengerFifth],
});

const data = (episodes: EpisodeRequest[]) => ({ episodes, divisionRoundIds: premierRounds });

function mount(episodes: EpisodeRequest[]) {
  const opened: string[] = [];
  const screen = renderAt(
    h(PlayerScreen, {
      refreshKey: 0,
      row: ada,
      division: premier,
      loadEpisodes: async () => data(episodes),
      notices: new Notices(),
      width: 100,
      height: 24,
      now: Date.parse("2026-01-01T12:01:00.000Z"),
      active: true,
      onOpenEpisode: (id) => opened.push(id),
    }),
    100,
    24,
  );
  return { screen, opened };
}

describe("the player screen", () => {
  it("shows the player's line, recent rounds and episodes with scores", async () => {
    const { screen } = mount([
      episode(["Ada", "Bo"]),
      episode(["Cy", "Ada"], { status: "failed", scores: [] }),
    ]);
    const frame = await screen.waitFor("the episodes", (f) => f.includes("Ada 10 vs Bo 9"));
    expect(frame).toContain("Ada  Premier · rank 1");
    expect(frame).toContain(
      "Score 1523.4 (95% interval 1480…1567) · form 1510 · 7 rounds · 14 episodes counted",
    );
    expect(frame).toMatch(/Round 7\s+rank 1 {2}score 9 {2}1m ago/);
    expect(frame).toMatch(/failed\s+Cy vs Ada/);
  });

  it("lists only this division's rounds: a round played before a move is not among them", async () => {
    const { screen } = mount([]);
    const frame = await screen.waitFor("the rounds", (f) => f.includes("Round 6"));
    expect(frame).toContain("Recent rounds in Premier");
    expect(frame).toMatch(/Round 7\s+rank 1/);
    expect(frame).not.toContain("Round 5");
  });

  it("lists the episodes newest first, whatever order they arrive in", async () => {
    const at = (minute: number) => `2026-01-01T12:0${minute}:00.000Z`;
    // One round's episodes share their request time; they finished at 12:02, 12:05 and 12:03.
    const { screen } = mount([
      episode(["Ada", "Bo"], { created_at: at(0), updated_at: at(2) }),
      episode(["Ada", "Cy"], { created_at: at(0), updated_at: at(5) }),
      episode(["Ada", "Dee"], { created_at: at(0), updated_at: at(3) }),
    ]);
    const frame = await screen.waitFor("the episodes", (f) => f.includes("Ada 10 vs Dee 9"));
    const order = ["Cy", "Dee", "Bo"].map((name) => frame.indexOf(`Ada 10 vs ${name} 9`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("opens the selected episode with Enter", async () => {
    const second = episode(["Cy", "Ada"], { updated_at: "2026-01-01T11:00:00.000Z" });
    const { screen, opened } = mount([
      episode(["Ada", "Bo"], { updated_at: "2026-01-01T11:30:00.000Z" }),
      second,
    ]);
    await screen.waitFor("the episodes", (f) => f.includes("Cy 10 vs Ada 9"));
    await screen.press("j", KEYS.enter);
    await screen.waitFor("opened", () => opened.length === 1);
    expect(opened).toEqual([second.id]);
  });

  it("shows the player's new episodes when the watched division has news", async () => {
    const first = episode(["Ada", "Bo"]);
    const second = episode(["Cy", "Ada"]);
    let list = [first];
    const props = {
      row: ada,
      division: premier,
      loadEpisodes: async () => data(list),
      notices: new Notices(),
      width: 100,
      height: 24,
      now: Date.parse("2026-01-01T12:01:00.000Z"),
      active: true,
      onOpenEpisode: () => undefined,
    };
    const screen = renderAt(h(PlayerScreen, { ...props, refreshKey: 1 }), 100, 24);
    await screen.waitFor("the first episode", (f) => f.includes("Ada 10 vs Bo 9"));
    list = [second, first];
    screen.rerender(h(PlayerScreen, { ...props, refreshKey: 2 }));
    const frame = await screen.waitFor("the new episode", (f) => f.includes("Cy 10 vs Ada 9"));
    expect(frame).toContain("Ada 10 vs Bo 9");
  });
});
