import { describe, expect, it } from "vitest";

import { division, league } from "../../testing/fixtures.ts";
import { sortDivisions } from "./catalog.ts";
import { fromCatalog } from "./resolve-target.ts";

const spring = league({ name: "Spring League" });
const summer = league({ name: "Summer Cup" });
const premier = division(spring, { name: "Premier", level: 1 });
const challenger = division(spring, { name: "Challenger", level: 2 });
const open = division(summer, { name: "Open", level: 1 });
const catalog = [
  { league: spring, divisions: [premier, challenger] },
  { league: summer, divisions: [open] },
];

describe("--league and --division", () => {
  it("finds a league by name, whole or by its start, and watches its top division", () => {
    expect(fromCatalog(catalog, { league: "spring league" })).toMatchObject({
      found: true,
      division: { id: premier.id },
    });
    expect(fromCatalog(catalog, { league: "Summ" })).toMatchObject({
      found: true,
      division: { id: open.id },
    });
  });

  it("finds a division by id or name, inside the league when one is given", () => {
    expect(fromCatalog(catalog, { division: challenger.id })).toMatchObject({
      found: true,
      league: { id: spring.id },
    });
    expect(fromCatalog(catalog, { league: spring.id, division: "challenger" })).toMatchObject({
      found: true,
      division: { id: challenger.id },
    });
  });

  it("says what did not match", () => {
    expect(fromCatalog(catalog, { league: "Winter" })).toEqual({
      found: false,
      message: 'no league you can see matches --league "Winter"',
    });
    expect(fromCatalog(catalog, { league: "Summer", division: "Premier" })).toEqual({
      found: false,
      message: 'league Summer Cup has no division matching --division "Premier"',
    });
    expect(fromCatalog(catalog, { division: "Nope" })).toMatchObject({ found: false });
  });

  it("orders divisions: competition by level, then staging; hidden and archived left out", () => {
    const staging = division(spring, { name: "Qualifying", level: 0, type: "staging" });
    const archived = division(spring, {
      name: "Old",
      level: 3,
      archived_at: "2026-01-01T00:00:00.000Z",
    });
    const hidden = division(spring, { name: "Secret", level: 4, hidden: true });
    expect(
      sortDivisions([staging, challenger, archived, premier, hidden]).map((d) => d.name),
    ).toEqual(["Premier", "Challenger", "Qualifying"]);
  });
});
