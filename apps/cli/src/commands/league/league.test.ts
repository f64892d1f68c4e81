// `gauntlet league …` without a process: what each verb parses its arguments into, bad input as
// one plain line and exit 2, and the output on a terminal, off one and with --json, against a
// real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { listCommand, type ListOptions } from "./list.ts";
import { triggerRoundCommand, type TriggerRoundOptions } from "./trigger-round.ts";

let fixture: TestLeague;
let leagueId = "";
let gameId = "";

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server, { divisions: [{ name: "Premier" }] });
  leagueId = fixture.league.id;
  gameId = fixture.league.game.id;
  return fixture.commissioner.token;
});
const { gauntlet, sdk, factory } = cli;

/** gauntlet as the league's commissioner (or as `token`). */

describe("parsing", () => {
  it("list: --game checked and kept, --mine and the global --json", async () => {
    expect(
      await parsed<ListOptions>(
        (parent, run) => listCommand(parent, factory(), run),
        ["list", "--game", ` ${gameId} `, "--mine", "--json"],
      ),
    ).toEqual({ gameId, mine: true, json: true });
    expect(
      await parsed<ListOptions>((parent, run) => listCommand(parent, factory(), run), ["list"]),
    ).toEqual({ gameId: null, mine: false, json: false });
  });

  it("trigger-round: the league and an optional division", async () => {
    const divisionId = fixture.divisions[0]?.id ?? "";
    expect(
      await parsed<TriggerRoundOptions>(
        (parent, run) => triggerRoundCommand(parent, factory(), run),
        ["trigger-round", leagueId, "--division", divisionId],
      ),
    ).toEqual({ leagueId, divisionId, json: false });
  });

  it.each([
    [
      ["league", "show", "league_nope"],
      "gauntlet: LEAGUE: 'league_nope' is not a valid id (expected league_<uuid>, e.g. league_00000000-0000-4000-8000-000000000000)\n",
    ],
    [
      ["league", "list", "--game", "chess"],
      "gauntlet: --game: 'chess' is not a valid id (expected game_<uuid>, e.g. game_00000000-0000-4000-8000-000000000000)\n",
    ],
    [
      ["league", "create", "--game", "game_x"],
      "gauntlet: required option '--name <name>' not specified\n",
    ],
    [
      ["league", "pause"],
      "gauntlet: LEAGUE: give a league (its name or id), or choose one with `gauntlet league use NAME`\n",
    ],
    [
      ["league", "lock", "x", "--unlocked"],
      "gauntlet: unknown option '--unlocked' (did you mean --unlock?)\n",
    ],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr });
  });

  it("update with nothing to change is refused before any request", async () => {
    expect(await gauntlet(["league", "update", leagueId])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "gauntlet: nothing to update: pass --name, --description, --public/--no-public or --hidden/--no-hidden\n",
    });
  });

  it("a league that does not exist is exit 3 in one line", async () => {
    const result = await gauntlet([
      "league",
      "show",
      "league_00000000-0000-4000-8000-000000000000",
    ]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^gauntlet: not found: .*\n$/);
  });
});

describe("output", () => {
  it("list and show: --json is the API's response; tables bold only on a terminal", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const api = sdk();
    expect(JSON.parse((await gauntlet(["league", "list", "--json"])).stdout)).toEqual(
      await api.leagues.list(),
    );
    expect(JSON.parse((await gauntlet(["league", "show", leagueId, "--json"])).stdout)).toEqual(
      await api.leagues.get({ league_id: leagueId }),
    );

    const list = await gauntlet(["league", "list", "--game", gameId]);
    expect(list.stdout).toMatch(
      new RegExp(
        `^ID\\s+NAME\\s+GAME\\s+PUBLIC\\s+ROUNDS\\n${leagueId}\\s+League of \\S+\\s+\\S+\\s+yes\\s+running\\n$`,
      ),
    );
    const tty = await gauntlet(["league", "list", "--game", gameId], { isTTY: true });
    expect(tty.stdout.startsWith("\u001b[1mID")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(list.stdout);

    const show = await gauntlet(["league", "show", leagueId]);
    expect(show.stdout.split("\n").slice(0, 6)).toEqual([
      `id:           ${leagueId}`,
      `name:         ${fixture.league.name}`,
      `game:         ${fixture.league.game.name} (${gameId})`,
      "public:       true",
      "commissioner: ladder (built-in)",
      "rounds:       running",
    ]);
    const showTty = await gauntlet(["league", "show", leagueId], { isTTY: true });
    expect(showTty.stdout.startsWith("\u001b[1mid:\u001b[22m")).toBe(true);
    expect(stripVTControlCharacters(showTty.stdout)).toBe(show.stdout);
  });

  it("create says what it made on standard error and shows it; --json is the league", async () => {
    const made = await gauntlet([
      "league",
      "create",
      "--name",
      "Spring",
      "--game",
      gameId,
      "--division",
      "Top",
      "Bottom",
    ]);
    expect(made.code).toBe(0);
    expect(made.stderr).toBe("created league Spring\n");
    expect(made.stdout).toMatch(/^id:\s+league_\S+\nname:\s+Spring\n/);

    const created = JSON.parse(
      (await gauntlet(["league", "create", "--name", "Autumn", "--game", gameId, "--json"])).stdout,
    ) as { id: string; name: string };
    expect(created).toEqual(await sdk().leagues.get({ league_id: created.id }));
  });

  it("update, lock, pause and trigger-round as the commissioner", async () => {
    const updated = await gauntlet(["league", "update", leagueId, "--description", "from a test"]);
    expect(updated.stdout).toMatch(/\ndescription: {2}from a test\n$/);

    const locked = await gauntlet(["league", "lock", leagueId]);
    expect(locked.stdout).toMatch(/^submissions_locked:\s+true$/m);
    const unlocked = JSON.parse(
      (await gauntlet(["league", "lock", leagueId, "--unlock", "--json"])).stdout,
    ) as unknown;
    expect(unlocked).toEqual(await sdk().leagues.getLocks({ league_id: leagueId }));

    const paused = await gauntlet(["league", "pause", leagueId]);
    expect(paused).toEqual({
      code: 0,
      stdout: "",
      stderr: `rounds of ${fixture.league.name} paused\n`,
    });
    expect((await gauntlet(["league", "pause", leagueId, "--resume"])).stderr).toBe(
      `rounds of ${fixture.league.name} resumed\n`,
    );

    // No entrants yet: no round starts, and the division skipped says why.
    const triggered = await gauntlet(["league", "trigger-round", leagueId]);
    expect(triggered.code).toBe(0);
    expect(triggered.stdout).toBe("");
    expect(triggered.stderr).toMatch(/^no round started\nskipped div_\S+: .+\n$/);
  });

  it("a rival cannot run someone else's league", async () => {
    const rival = await cli.server.newUser();
    const result = await gauntlet(["league", "pause", leagueId], { token: rival.token });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toHaveLength(2);
    expect(await sdk().leagues.get({ league_id: leagueId })).toMatchObject({
      rounds_paused_at: null,
    });
  });
});
