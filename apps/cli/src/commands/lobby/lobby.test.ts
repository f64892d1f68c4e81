// `gauntlet lobby …` without a process: what the verbs parse their arguments into, bad input as one
// plain line and exit 2, and a lobby's fields and seats on a terminal, off one and with --json,
// against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { createCommand, type CreateOptions } from "./create.ts";
import { updateCommand, type UpdateOptions } from "./update.ts";

let tl: TestLeague;

const cli = useCliServer(async (server) => {
  tl = await createTestLeague(server);
  return tl.commissioner.token;
});
const { gauntlet, sdk, factory } = cli;

const LOBBY = "lby_00000000-0000-4000-8000-000000000000";
const LEAGUE = "league_00000000-0000-4000-8000-000000000000";
const USER = "user_00000000-0000-4000-8000-000000000000";

describe("parsing", () => {
  it("create: the seats in order, the variant and the config", async () => {
    expect(
      await parsed<CreateOptions>(
        (parent, run) => createCommand(parent, factory(), run),
        [
          "create",
          tl.league.id,
          "--seat",
          `human:${USER}`,
          "--seat",
          "random",
          "--config",
          '{"turns":5}',
        ],
      ),
    ).toEqual({
      leagueId: tl.league.id,
      seats: [{ kind: "human", user_id: USER }, { kind: "random" }],
      variantId: null,
      overrides: { turns: 5 },
      json: false,
    });
  });

  it("create: a league player by name, in any case, among the league's champions", async () => {
    const alpha = await tl.addPlayer("Alpha");
    await tl.submit(alpha);
    expect(
      await parsed<CreateOptions>(
        (parent, run) => createCommand(parent, factory(), run),
        ["create", tl.league.id, "--seat", "league_player:alpha", "--seat", "random"],
      ),
    ).toMatchObject({
      seats: [{ kind: "league_player", player_id: alpha.id }, { kind: "random" }],
    });
    const unknown = await gauntlet(["lobby", "create", tl.league.id, "--seat", "league_player:Bo"]);
    expect(unknown).toEqual({
      code: 3,
      stdout: "",
      stderr: `gauntlet: --seat league_player: no league player named 'Bo' (there are: Alpha (${tl.divisions[0]?.name ?? ""}, ${alpha.id}))\n`,
    });
  });

  it("update: --default-variant is the variant null", async () => {
    expect(
      await parsed<UpdateOptions>(
        (parent, run) => updateCommand(parent, factory(), run),
        ["update", LOBBY, "--default-variant"],
      ),
    ).toEqual({ lobbyId: LOBBY, variant: { variant_id: null }, overrides: null, json: false });
  });

  it.each([
    [
      ["lobby", "create", LEAGUE, "--seat", "robot"],
      "gauntlet: --seat: expected human:USER_ID, human_open, league_player:PLAYER, random or closed, got 'robot'\n",
    ],
    [
      ["lobby", "create", LEAGUE, "--seat", "random", "--config", "[1]"],
      "gauntlet: --config: expected a JSON object, got '[1]'\n",
    ],
    [
      ["lobby", "seat", LOBBY, "32", "closed"],
      "gauntlet: SEAT: expected a whole number from 0 to 31, got '32'\n",
    ],
    [
      ["lobby", "update", LOBBY],
      "gauntlet: nothing to change: give --variant, --default-variant or --config\n",
    ],
    [
      ["lobby", "update", LOBBY, "--variant", "v", "--default-variant"],
      "gauntlet: give --variant or --default-variant, not both\n",
    ],
    [
      ["lobby", "start", "lobby_1"],
      "gauntlet: LOBBY: 'lobby_1' is not a valid id (expected lby_<uuid>, e.g. lby_00000000-0000-4000-8000-000000000000)\n",
    ],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr });
  });
});

describe("output", () => {
  it("a lobby's fields and seats; every verb answers with the lobby; --json is the API's", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const me = `human:${tl.commissioner.id}`;
    const created = await gauntlet([
      "lobby",
      "create",
      tl.league.id,
      "--seat",
      me,
      "--seat",
      "random",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = /^id:\s+(lby_\S+)$/m.exec(created.stdout)?.[1] ?? "";
    expect(created.stdout).toMatch(
      new RegExp(
        `^id:\\s+${id}\\nleague:\\s+${tl.league.id}\\nstatus:\\s+open\\n[^]*\\nSEAT\\s+KIND\\s+USER\\s+PLAYER\\s+POLICY VERSION\\n0\\s+human\\s+${tl.commissioner.id}\\s+-\\s+-\\n1\\s+random\\s+-\\s+-\\s+-\\n$`,
      ),
    );
    const tty = await gauntlet(["lobby", "get", id], true);
    expect(tty.stdout.startsWith("\u001b[1mid:")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(
      (await gauntlet(["lobby", "get", id])).stdout,
    );
    expect(JSON.parse((await gauntlet(["lobby", "get", id, "--json"])).stdout)).toEqual(
      await sdk().lobbies.get({ lobby_id: id }),
    );

    const seat = await gauntlet(["lobby", "seat", id, "1", "human_open"]);
    expect(seat.code, seat.stderr).toBe(0);
    expect(seat.stdout).toMatch(/\n1\s+human_open\s/);
    const claimed = JSON.parse((await gauntlet(["lobby", "claim", id, "0", "--json"])).stdout) as {
      seats: { claimed_at: string | null }[];
    };
    expect(claimed.seats[0]?.claimed_at).not.toBeNull();
    const emptied = JSON.parse((await gauntlet(["lobby", "empty", id, "0", "--json"])).stdout) as {
      seats: { claimed_at: string | null }[];
    };
    expect(emptied.seats[0]?.claimed_at).toBeNull();
    const cancelled = await gauntlet(["lobby", "cancel", id]);
    expect(cancelled.stdout).toMatch(/\nstatus:\s+cancelled\n/);
  });
});
