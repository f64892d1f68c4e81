// What a rival writes into a name or description reaches other people's terminals: every table and
// key/value block shows its control characters (escape sequences, carriage returns, bells,
// bidirectional overrides) as visible text, so no league can rewrite, hide or colour what a
// `gauntlet` user sees, set their window title or write to their clipboard (OSC 52).
import { describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../test/cli-server.ts";

let fixture: TestLeague;

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server, { divisions: [{ name: "Premier" }] });
  return fixture.commissioner.token;
});
const { gauntlet, sdk } = cli;

const HOSTILE_NAME = "Evil\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2K\rRank 1: Eve\u202e";
const HOSTILE_DESCRIPTION = "fine\u001b[1A\u001b[2Kforged line\u009b31m\u0008";
// Controls the CLI itself never prints inside a cell: ESC, BEL, CR, BS, C1 CSI, bidi override.
// eslint-disable-next-line no-control-regex
const INJECTED = /[\u001b\u0007\r\u0008\u009b\u202e]/;

describe("text from the server on the terminal", () => {
  it("shows a league's hostile name and description as visible escapes, in show and list", async () => {
    vi.stubEnv("NO_COLOR", "1");
    const leagueId = fixture.league.id;
    await sdk(fixture.commissioner.token).leagues.update({
      league_id: leagueId,
      body: { name: HOSTILE_NAME, description: HOSTILE_DESCRIPTION },
    });
    const show = await gauntlet(["league", "show", leagueId]);
    expect(show.code).toBe(0);
    expect(show.stdout).not.toMatch(INJECTED);
    expect(show.stdout).toContain("name:");
    expect(show.stdout).toContain(
      "Evil\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2K\\x0dRank 1: Eve\\u202e",
    );
    expect(show.stdout).toContain("fine\\x1b[1A\\x1b[2Kforged line\\x9b31m\\x08");
    const list = await gauntlet(["league", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(INJECTED);
    expect(list.stdout).toContain("Evil\\x1b]52");
  });
});
