// `gauntlet round list|show` without a process: parsing, tables on a terminal and off it, and
// --json, against a real server on a free port with one round started.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
} from "@gauntlet/server/testing";

import { useCliServer } from "../../test/cli-server.ts";

let fixture: TestLeague;
let runner: ScriptedRunner;
let roundId = "";
let divisionId = "";

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server);
  runner = await scriptedRunner(server);
  divisionId = fixture.divisions[0]?.id ?? "";
  await fixture.submit(await fixture.addPlayer("Alpha"));
  await fixture.submit(await fixture.addPlayer("Beta", { baseline: "wanderer" }));
  const started = await cli
    .sdk(fixture.commissioner.token)
    .leagues.triggerRound({ league_id: fixture.league.id, body: {} });
  roundId = started.rounds[0]?.id ?? "";
  return fixture.commissioner.token;
});
const { gauntlet, sdk } = cli;

describe("gauntlet round", () => {
  it.each([
    [
      ["round", "list"],
      "--league: give a league (its name or id), or choose one with `gauntlet league use NAME`",
    ],
    [
      ["round", "list", "--league", "L", "--limit", "x"],
      "--limit: expected a positive whole number, got 'x'",
    ],
    [
      ["round", "show", "div_x"],
      "ROUND: 'div_x' is not a valid id (expected round_<uuid>, e.g. round_00000000-0000-4000-8000-000000000000)",
    ],
  ])("%j is refused in one line with exit 2", async (args, message) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr: `gauntlet: ${message}\n` });
  });

  it("list and show: --json is the API's response; tables bold only on a terminal", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    expect(
      JSON.parse((await gauntlet(["round", "list", "--division", divisionId, "--json"])).stdout),
    ).toEqual(await sdk().rounds.list({ division_id: divisionId, limit: 20 }));
    expect(JSON.parse((await gauntlet(["round", "show", roundId, "--json"])).stdout)).toEqual(
      await sdk().rounds.get({ round_id: roundId }),
    );

    const list = await gauntlet(["round", "list", "--league", fixture.league.id]);
    expect(list.stdout).toMatch(
      new RegExp(
        `^ID\\s+DIVISION\\s+NUMBER\\s+COMMISSIONER\\s+STATUS\\s+STARTED\\s+COMPLETED\\n${roundId}\\s+Premier\\s+1\\s+ladder\\s`,
      ),
    );
    const tty = await gauntlet(["round", "list", "--league", fixture.league.id], true);
    expect(tty.stdout).not.toBe(list.stdout);
    expect(stripVTControlCharacters(tty.stdout)).toBe(list.stdout);

    const show = await gauntlet(["round", "show", roundId]);
    expect(show.stdout).toMatch(
      new RegExp(
        `^id:\\s+${roundId}\\ndivision:\\s+Premier \\(${divisionId}\\)\\nnumber:\\s+1\\ncommissioner:\\s+ladder \\(built-in\\)\\n`,
      ),
    );
  });

  it("show lists the round's results and its episodes as they were scheduled", async () => {
    const round = await eventually("the round settled", async () => {
      await runner.runQueued(byStrength({ Alpha: 2, Beta: 1 }));
      const r = await sdk().rounds.get({ round_id: roundId });
      return r.status === "completed" ? r : null;
    });
    const show = (await gauntlet(["round", "show", roundId])).stdout;
    const [, results = "", episodes = ""] = show.split(/\n(?:Results|Episodes)\n/);
    expect(results).toMatch(/^RANK\s+PLAYER\s+VERSION\s+SCORE\n1\s+(Alpha|Beta)\s+\S+:v1\s+/);
    expect(results.trim().split("\n")).toHaveLength(1 + round.results.length);
    const listed = await sdk().episodeRequests.list({ round_id: roundId, limit: 50 });
    expect(episodes.trim().split("\n")).toHaveLength(1 + listed.entries.length);
    for (const e of listed.entries)
      expect(episodes).toMatch(new RegExp(`${e.id}\\s+completed\\s+`));
  });
});
