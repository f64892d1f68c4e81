// The league and division picker with ink-testing-library.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import type { Division } from "@gauntlet/core";

import { division, league } from "../../testing/fixtures.ts";
import { KEYS, renderAt } from "../../testing/ink.ts";
import type { CatalogEntry } from "../data/catalog.ts";
import { Notices } from "../data/notices.ts";
import { PickerScreen } from "./picker-screen.ts";

afterEach(cleanup);

const spring = league({ name: "Spring League", is_game_of_week: true });
const summer = league({ name: "Summer Cup", public: false });
const catalog: CatalogEntry[] = [
  {
    league: spring,
    divisions: [
      division(spring, { name: "Premier", level: 1 }),
      division(spring, { name: "Challenger", level: 2 }),
    ],
  },
  { league: summer, divisions: [division(summer, { name: "Open", level: 1 })] },
];

function mount(load: (signal: AbortSignal) => Promise<CatalogEntry[]>) {
  const opened: { league: string; division: Division }[] = [];
  const notices = new Notices();
  const screen = renderAt(
    h(PickerScreen, {
      onOnlyLeague: null,
      load,
      notices,
      server: "http://gauntlet.test",
      width: 100,
      height: 20,
      active: true,
      onOpen: (entry, d) => opened.push({ league: entry.league.name, division: d }),
    }),
    100,
    20,
  );
  return { screen, opened, notices };
}

describe("the picker", () => {
  it("lists the leagues with their divisions", async () => {
    const { screen } = mount(async () => catalog);
    const frame = await screen.waitFor("the leagues", (f) => f.includes("Summer Cup"));
    expect(frame).toMatch(/›Spring League {2}gridrush · public · 2 divisions · game of the week/);
    expect(frame).toMatch(/Premier {2}level 1/);
    expect(frame).toMatch(/Summer Cup {2}gridrush · private · 1 division\b/);
    expect(frame).toContain("2 on http://gauntlet.test");
  });

  it("opens a league's top division from the league line, and a division from its own line", async () => {
    const { screen, opened } = mount(async () => catalog);
    await screen.waitFor("the leagues", (f) => f.includes("Summer Cup"));
    await screen.press(KEYS.enter);
    await screen.waitFor("opened", () => opened.length === 1);
    expect(opened[0]).toMatchObject({ league: "Spring League", division: { name: "Premier" } });
    await screen.press("j", KEYS.down, KEYS.enter);
    await screen.waitFor("opened again", () => opened.length === 2);
    expect(opened[1]).toMatchObject({ league: "Spring League", division: { name: "Challenger" } });
    await screen.press(
      "G",
      "k",
      KEYS.up,
      "g",
      KEYS.down,
      KEYS.down,
      KEYS.down,
      KEYS.down,
      KEYS.enter,
    );
    await screen.waitFor("opened a third time", () => opened.length === 3);
    expect(opened[2]).toMatchObject({ league: "Summer Cup", division: { name: "Open" } });
  });

  it("filters by league or division name with /", async () => {
    const { screen, opened } = mount(async () => catalog);
    await screen.waitFor("the leagues", (f) => f.includes("Summer Cup"));
    await screen.press("/", "o", "p", "e", "n");
    const frame = await screen.waitFor("filtered", (f) => !f.includes("Spring League"));
    expect(frame).toContain("Summer Cup");
    expect(frame).toContain("Open");
    await screen.press(KEYS.enter, "j", KEYS.enter);
    await screen.waitFor("opened", () => opened.length === 1);
    expect(opened[0]?.division.name).toBe("Open");
    await screen.press("/", "z", "z", "z");
    await screen.waitFor("nothing matches", (f) => f.includes("Nothing matches the filter."));
    await screen.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.escape);
    await screen.waitFor(
      "everything again",
      (f) => f.includes("Spring League") && f.includes("Summer Cup"),
    );
  });

  it("says when there is nothing to watch", async () => {
    const { screen } = mount(async () => []);
    await screen.waitFor("the empty state", (f) =>
      f.includes("No leagues you can see on http://gauntlet.test"),
    );
  });

  it("shows a failed load in the pane and in the status notices", async () => {
    const { screen, notices } = mount(async () => {
      throw new Error("socket hang up");
    });
    await screen.waitFor("the failure", (f) =>
      f.includes("Could not load the leagues: leagues: socket hang up"),
    );
    expect(notices.latest?.text).toBe("leagues: socket hang up");
  });
});
