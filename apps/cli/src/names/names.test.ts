// Names where ids are taken, and the remembered current league, through the real program
// against a real server: what a user types, what they see.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague, type TestPlayer } from "@gauntlet/server/testing";

import { useCliServer } from "../../test/cli-server.ts";

let spring: TestLeague;
let twin: TestLeague;
let other: TestLeague;
let alpha: TestPlayer;
const home = mkdtempSync(join(tmpdir(), "gauntlet-names-"));

const cli = useCliServer(async (server) => {
  spring = await createTestLeague(server, {
    divisions: [{ name: "Premier" }, { name: "Challenger" }],
  });
  const springSdk = cli.sdk(spring.commissioner.token);
  await springSdk.leagues.update({ league_id: spring.league.id, body: { name: "Spring League" } });
  alpha = await spring.addPlayer("Alpha");
  twin = await createTestLeague(server);
  other = await createTestLeague(server);
  for (const t of [twin, other])
    await cli.sdk(t.commissioner.token).leagues.update({
      league_id: t.league.id,
      body: { name: "Twin" },
    });
  return spring.commissioner.token;
});
const sdk = (token: string) => cli.sdk(token);
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  vi.stubEnv("XDG_CONFIG_HOME", home);
});

const gauntlet = (args: readonly string[]) => cli.gauntlet(args);
const jsonOf = (r: { code: number; stdout: string; stderr: string }): unknown => {
  expect(r.stderr.includes("gauntlet:") ? r.stderr : "").toBe("");
  return JSON.parse(r.stdout);
};

describe("a name where an id is taken", () => {
  it("finds a league by its name, in any case", async () => {
    const league = await sdk(spring.commissioner.token).leagues.get({
      league_id: spring.league.id,
    });
    expect(jsonOf(await gauntlet(["league", "show", "Spring League", "--json"]))).toEqual(league);
    expect(jsonOf(await gauntlet(["league", "show", "spring league", "--json"]))).toEqual(league);
  });

  it("refuses an ambiguous name in one line listing the matches", async () => {
    const result = await gauntlet(["league", "show", "Twin"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^gauntlet: LEAGUE: 2 leagues are named 'Twin': .*; give the id\n$/,
    );
    for (const t of [twin, other]) expect(result.stderr).toContain(`Twin (${t.league.id})`);
  });

  it("says when nothing has the name, and what is near it", async () => {
    const result = await gauntlet(["league", "show", "Spring"]);
    expect(result).toEqual({
      code: 3,
      stdout: "",
      stderr: `gauntlet: LEAGUE: no league named 'Spring' (did you mean Spring League (${spring.league.id})?)\n`,
    });
  });

  it("finds a division by name within a league given by name", async () => {
    const challenger = spring.divisions[1];
    expect(
      jsonOf(await gauntlet(["leaderboard", "Challenger", "--league", "Spring League", "--json"])),
    ).toEqual(
      await sdk(spring.commissioner.token).divisions.leaderboard({
        division_id: challenger?.id ?? "",
        include_recent_rounds: true,
      }),
    );
    const rounds = await gauntlet(["round", "list", "--division", "Challenger", "--json"]);
    expect(rounds.code).toBe(0);
  });

  it("submits to a league and as a player given by name", async () => {
    const result = await gauntlet([
      "submit",
      "greedy-alpha",
      "--league",
      "Spring League",
      "--player",
      "alpha",
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ league: { id: spring.league.id } });
    expect(alpha.name).toBe("Alpha");
  });
});

describe("gauntlet league use", () => {
  it("remembers a league; commands given none use it and say so; --clear forgets it", async () => {
    expect((await gauntlet(["league", "use"])).stderr).toBe(
      "no current league (choose one: gauntlet league use NAME)\n",
    );
    const used = await gauntlet(["league", "use", "spring league"]);
    expect(used).toEqual({
      code: 0,
      stdout: "",
      stderr: `current league: Spring League (${spring.league.id}); commands given no league use it\n`,
    });
    expect((await gauntlet(["league", "use"])).stdout).toBe(
      `Spring League (${spring.league.id})\n`,
    );

    const divisions = await gauntlet(["division", "list", "--json"]);
    expect(JSON.parse(divisions.stdout)).toEqual(
      await sdk(spring.commissioner.token).divisions.list({ league_id: spring.league.id }),
    );
    expect(divisions.stderr).toBe(
      "league: Spring League (the current league; gauntlet league use)\n",
    );

    const board = await gauntlet(["leaderboard"]);
    expect(board.code).toBe(0);
    expect(board.stderr).toContain(
      "division: Premier (the league's top; give DIVISION for another)\n",
    );
    // A division's name is looked for in the current league first.
    expect((await gauntlet(["leaderboard", "Challenger"])).code).toBe(0);

    expect((await gauntlet(["league", "use", "--clear"])).code).toBe(0);
    expect(await gauntlet(["division", "list"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "gauntlet: --league: give a league (its name or id), or choose one with `gauntlet league use NAME`\n",
    });
  });

  it("refuses a league it cannot find, and keeps no current league", async () => {
    expect((await gauntlet(["league", "use", "Nowhere"])).code).toBe(3);
    expect(JSON.parse((await gauntlet(["league", "use", "--json"])).stdout)).toBeNull();
  });
});
