// `gauntlet submit`, `submissions` and `memberships` without a process: parsing, policy names
// resolved to your own versions only, and the output on a terminal, off one and with --json,
// against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague, type TestPlayer } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { membershipsCommand, type MembershipsOptions } from "./memberships.ts";
import { submitCommand, type SubmitOptions } from "./submit.ts";

let fixture: TestLeague;
let player: TestPlayer;
let leagueId = "";
/** The policy name the fixture gave the player's version. */
const POLICY = "greedy-alpha";
/** Stands for the league's id in tables built before beforeAll has made it. */
const LEAGUE = "<league>";

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server);
  leagueId = fixture.league.id;
  player = await fixture.addPlayer("Alpha");
  return fixture.commissioner.token;
});
const { gauntlet, sdk, factory } = cli;

describe("parsing", () => {
  it("submit keeps POLICY as typed and checks --league and --player", async () => {
    expect(
      await parsed<SubmitOptions>(
        (parent, run) => submitCommand(parent, factory(), run),
        ["submit", `${POLICY}:v1`, "--league", leagueId, "--player", player.id, "--json"],
      ),
    ).toEqual({ policy: `${POLICY}:v1`, leagueId, playerId: player.id, json: true });
  });

  it("memberships: mine unless --all", async () => {
    const divisionId = fixture.divisions[0]?.id ?? "";
    expect(
      await parsed<MembershipsOptions>(
        (parent, run) => membershipsCommand(parent, factory(), run),
        ["memberships", "--division", divisionId, "--all"],
      ),
    ).toEqual({ leagueId: null, divisionId, all: true, json: false });
  });

  it.each([
    [
      ["submit", POLICY],
      "gauntlet: --league: give a league (its name or id), or choose one with `gauntlet league use NAME`\n",
    ],
    [
      ["submit", POLICY, "--league", LEAGUE, "--player", "ply_alpha"],
      "gauntlet: --player: 'ply_alpha' is not a valid id (expected ply_<uuid>, e.g. ply_00000000-0000-4000-8000-000000000000)\n",
    ],
    [
      ["submissions", "--league", "league_spring"],
      "gauntlet: --league: 'league_spring' is not a valid id (expected league_<uuid>, e.g. league_00000000-0000-4000-8000-000000000000)\n",
    ],
    [
      ["memberships", "--division", "div_x"],
      "gauntlet: --division: 'div_x' is not a valid id (expected div_<uuid>, e.g. div_00000000-0000-4000-8000-000000000000)\n",
    ],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    expect(await gauntlet(args.map((a) => (a === LEAGUE ? leagueId : a)))).toEqual({
      code: 2,
      stdout: "",
      stderr,
    });
  });

  it.each([["submissions"], ["memberships"]])(
    "%s without a sign-in says to sign in (exit 4), not that there are none",
    async (verb) => {
      const result = await gauntlet([verb], { token: null });
      expect(result.code).toBe(4);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^gauntlet: .*gauntlet auth login.*\n$/);
    },
  );

  it("a version the policy does not have is exit 3, naming the versions it has", async () => {
    expect(await gauntlet(["submit", `${POLICY}:v9`, "--league", leagueId])).toEqual({
      code: 3,
      stdout: "",
      stderr: `gauntlet: POLICY: ${POLICY} has no version v9 (it has v1)\n`,
    });
  });
});

describe("output", () => {
  it("submits by name, says so on standard error, then lists it (table and --json)", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const result = await gauntlet(["submit", POLICY, "--league", leagueId, "--player", player.id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `submitted ${POLICY} to ${fixture.league.name} (${leagueId}) as Alpha: placed in the ${fixture.divisions[0]?.name ?? "?"} division\n`,
    );

    const mine = await sdk().leagueSubmissions.list({ league_id: leagueId, mine: true });
    expect(mine.map((s) => s.policy_version.id)).toEqual([player.policyVersionId]);
    expect(
      JSON.parse((await gauntlet(["submissions", "--league", leagueId, "--json"])).stdout),
    ).toEqual(mine);

    const table = await gauntlet(["submissions", "--league", leagueId]);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+LEAGUE\s+POLICY\s+STATUS\s+CREATED$/);
    expect(lines[1]).toContain(`${POLICY}:v1`);
    const tty = await gauntlet(["submissions", "--league", leagueId], { isTTY: true });
    expect(tty.stdout.startsWith("\u001b[1mID")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(table.stdout);

    expect(
      JSON.parse((await gauntlet(["memberships", "--league", leagueId, "--json"])).stdout),
    ).toEqual(await sdk().memberships.list({ league_id: leagueId, mine: true }));
  });

  it("an empty list says so on standard error", async () => {
    const rival = await cli.server.newUser();
    expect(await gauntlet(["submissions", "--league", leagueId], { token: rival.token })).toEqual({
      code: 0,
      stdout: "",
      stderr: "no submissions\n",
    });
    expect(await gauntlet(["memberships", "--league", leagueId], { token: rival.token })).toEqual({
      code: 0,
      stdout: "",
      stderr: "no memberships\n",
    });
  });

  it("a rival cannot submit someone else's policy, by name or by version id", async () => {
    const rival = await cli.server.newUser();
    expect(
      await gauntlet(["submit", POLICY, "--league", leagueId], { token: rival.token }),
    ).toEqual({
      code: 3,
      stdout: "",
      stderr: `gauntlet: POLICY: you have no policy named '${POLICY}' (see gauntlet policy list --mine)\n`,
    });
    const byId = await gauntlet(["submit", player.policyVersionId, "--league", leagueId], {
      token: rival.token,
    });
    expect(byId.code).not.toBe(0);
    expect(byId.stdout).toBe("");
    expect(byId.stderr.split("\n")).toHaveLength(2);
    expect(
      await sdk(rival.token).leagueSubmissions.list({ league_id: leagueId, mine: true }),
    ).toEqual([]);
  });
});
