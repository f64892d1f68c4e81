// `gauntlet campaign show|migrate` without a process: parsing, the board on a terminal and off
// it, --json, and a dry run that changes nothing, against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createClient } from "@gauntlet/sdk";
import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../test/cli-server.ts";

let fixture: TestLeague;

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server);
  return server.adminToken;
});
const { gauntlet } = cli;

describe("gauntlet campaign", () => {
  it.each([
    [
      ["campaign", "show", "league_nope"],
      "LEAGUE: 'league_nope' is not a valid id (expected league_<uuid>, e.g. league_00000000-0000-4000-8000-000000000000)",
    ],
    [
      ["campaign", "migrate"],
      "LEAGUE: give a league (its name or id), or choose one with `gauntlet league use NAME`",
    ],
  ])("%j is refused in one line with exit 2", async (args, message) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr: `gauntlet: ${message}\n` });
  });

  it("show: --json is the API's response; the board's fields bold only on a terminal", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const league_id = fixture.league.id;
    const api = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: cli.server.url,
      token: cli.server.adminToken,
    });
    expect(JSON.parse((await gauntlet(["campaign", "show", league_id, "--json"])).stdout)).toEqual(
      await api.campaign.get({ league_id }),
    );
    const plain = await gauntlet(["campaign", "show", league_id]);
    expect(plain).toEqual({
      code: 0,
      stdout: `league:   ${league_id}\ngeometry: 6×6\nunowned:  36\ncaptures: 0\n`,
      stderr: "no territory held yet\n",
    });
    const tty = await gauntlet(["campaign", "show", league_id], { isTTY: true });
    expect(tty.stdout.startsWith("\u001b[1mleague:")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(plain.stdout);
  });

  it("migrate previews unless --apply, and says which it did (an admin, with --elevated)", async () => {
    const unelevated = await gauntlet(["campaign", "migrate", fixture.league.id]);
    expect(unelevated.code).not.toBe(0);
    const preview = await gauntlet(["--elevated", "campaign", "migrate", fixture.league.id]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/^from:\s+6×6 \(36 cells\)\nto:\s+6×6 \(36 cells\)\n/);
    expect(preview.stderr).toBe(
      "no territory held\ndry run: nothing changed (use --apply to migrate)\n",
    );
    const applied = JSON.parse(
      (
        await gauntlet([
          "--elevated",
          "campaign",
          "migrate",
          fixture.league.id,
          "--apply",
          "--json",
        ])
      ).stdout,
    ) as { applied: boolean };
    expect(applied.applied).toBe(true);
  });

  it("a rival cannot migrate someone else's board", async () => {
    const rival = await cli.server.newUser();
    const result = await gauntlet(["campaign", "migrate", fixture.league.id, "--apply"], {
      token: rival.token,
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toHaveLength(2);
  });
});
