// `gauntlet leaderboard` without a process: parsing, the table on a terminal and off it, and
// --json, against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createClient } from "@gauntlet/sdk";
import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../test/cli-server.ts";

let league: TestLeague;
let divisionId = "";

const cli = useCliServer(async (server) => {
  league = await createTestLeague(server);
  divisionId = league.divisions[0]?.id ?? "";
  await league.submit(await league.addPlayer("Alpha"));
  await league.submit(await league.addPlayer("Beta", { baseline: "wanderer" }));
  return league.commissioner.token;
});
const { gauntlet } = cli;

describe("gauntlet leaderboard", () => {
  it("refuses a malformed division id with one plain line and exit 2, before any request", async () => {
    const result = await gauntlet(["leaderboard", "div_nope"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "gauntlet: DIVISION: 'div_nope' is not a valid id (expected div_<uuid>, e.g. div_00000000-0000-4000-8000-000000000000)\n",
    });
  });

  it("says a missing argument in one line", async () => {
    const result = await gauntlet(["leaderboard"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "gauntlet: --league: give a league (its name or id), or choose one with `gauntlet league use NAME`\n",
    );
  });

  it("prints the API's response with --json", async () => {
    const result = await gauntlet(["leaderboard", divisionId, "--json"]);
    expect(result.code).toBe(0);
    const sdk = createClient({ env: {}, useSavedCredentials: false, baseUrl: cli.server.url });
    expect(JSON.parse(result.stdout)).toEqual(
      await sdk.divisions.leaderboard({ division_id: divisionId, include_recent_rounds: true }),
    );
  });

  it("prints a plain table off a terminal and a bold header on one", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    try {
      const plain = await gauntlet(["leaderboard", divisionId]);
      expect(plain.code).toBe(0);
      const lines = plain.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^RANK\s+COULD RANK\s+PLAYER\s+SCORE\s+95% INTERVAL/);
      expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[2])).toEqual(
        expect.arrayContaining(["Alpha", "Beta"]),
      );
      expect(plain.stdout).not.toContain("\u001b[");

      const tty = await gauntlet(["leaderboard", divisionId], true);
      expect(tty.stdout.startsWith("\u001b[1mRANK")).toBe(true);
      expect(stripVTControlCharacters(tty.stdout)).toBe(plain.stdout);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("says so on standard error when the division has no standings", async () => {
    const empty = await createTestLeague(cli.server);
    const result = await gauntlet(["leaderboard", empty.divisions[0]?.id ?? ""]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "no standings yet in this division\n" });
  });
});
