// `gauntlet tournament …` without a process: what create parses its flags into, bad input as one
// plain line and exit 2, and a cup's fields, entrants and bracket on a terminal, off one and with
// --json, against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague, type TestPlayer } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { createCommand, type CreateOptions } from "./create.ts";
import { transitionCommand, type TransitionOptions } from "./transition.ts";

let tl: TestLeague;
let entrants: TestPlayer[];

const cli = useCliServer(async (server) => {
  tl = await createTestLeague(server);
  entrants = [await tl.addPlayer("Ava"), await tl.addPlayer("Ben")];
  return tl.commissioner.token;
});
const { gauntlet, sdk, factory } = cli;

const TOUR = "tour_00000000-0000-4000-8000-000000000000";

describe("parsing", () => {
  it("create: the policies in seed order, the episodes as a number, the defaults", async () => {
    const [ava, ben] = entrants.map((e) => e.policyVersionId);
    expect(
      await parsed<CreateOptions>(
        (parent, run) => createCommand(parent, factory(), run),
        ["create", tl.league.id, "--name", "Cup", "--policy", `${ben}`, "--policy", `${ava}`],
      ),
    ).toEqual({
      leagueId: tl.league.id,
      name: "Cup",
      format: "single_elimination",
      policyVersionIds: [ben, ava],
      episodesPerMatch: 1,
      variantId: null,
      json: false,
    });
  });

  it("lock, start, advance, cancel: the verb and the tournament", async () => {
    expect(
      await parsed<TransitionOptions>(
        (parent, run) => transitionCommand(parent, factory(), "advance", "", run),
        ["advance", TOUR, "--json"],
      ),
    ).toEqual({ verb: "advance", tournamentId: TOUR, json: true });
  });

  it.each([
    [
      [
        "tournament",
        "create",
        "league_00000000-0000-4000-8000-000000000000",
        "--name",
        "x",
        "--format",
        "swiss",
      ],
      "gauntlet: --format: expected one of single_elimination, double_elimination, round_robin, got 'swiss'\n",
    ],
    [
      [
        "tournament",
        "create",
        "league_00000000-0000-4000-8000-000000000000",
        "--name",
        "x",
        "--policy",
        "p1",
      ],
      "gauntlet: --policy: 'p1' is not a valid id (expected a UUID)\n",
    ],
    [
      [
        "tournament",
        "create",
        "league_00000000-0000-4000-8000-000000000000",
        "--name",
        "x",
        "--episodes",
        "0",
      ],
      "gauntlet: --episodes: expected a positive whole number, got '0'\n",
    ],
    [
      ["tournament", "lock", "tour_nope"],
      "gauntlet: TOURNAMENT: 'tour_nope' is not a valid id (expected tour_<uuid>, e.g. tour_00000000-0000-4000-8000-000000000000)\n",
    ],
    [
      ["tournament", "list"],
      "gauntlet: LEAGUE: give a league (its name or id), or choose one with `gauntlet league use NAME`\n",
    ],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr });
  });
});

describe("output", () => {
  it("a cup's entrants before the draw, its bracket after; list as a table; --json is the API's", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const policies = entrants.flatMap((e) => ["--policy", e.policyVersionId]);
    const created = await gauntlet([
      "tournament",
      "create",
      tl.league.id,
      "--name",
      "Cup",
      ...policies,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = /^id:\s+(tour_\S+)$/m.exec(created.stdout)?.[1] ?? "";
    expect(created.stdout).toMatch(/status:\s+draft\n/);
    expect(created.stdout).toMatch(
      /\nSEED\s+ENTRANT\s+POLICY VERSION\n1\s+Ava\s+\S+\n2\s+Ben\s+\S+\n$/,
    );

    const list = await gauntlet(["tournament", "list", tl.league.id]);
    expect(list.stdout).toMatch(
      new RegExp(
        `^ID\\s+NAME\\s+FORMAT\\s+STATUS\\s+ENTRANTS\\s+WINNER\\s+CREATED\\n${id}\\s+Cup\\s+single_elimination\\s+draft\\s+2\\s`,
      ),
    );
    const tty = await gauntlet(["tournament", "list", tl.league.id], true);
    expect(tty.stdout.startsWith("\u001b[1mID")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(list.stdout);

    const locked = await gauntlet(["tournament", "lock", id]);
    expect(locked.stdout).toMatch(/status:\s+locked\n/);
    expect(locked.stdout).toMatch(
      /\nROUND\s+A\s+B\s+SCORE A\s+SCORE B\s+STATUS\s+WINNER\s+DECIDED BY\n1\s+#1 Ava\s+#2 Ben\s/,
    );

    expect(JSON.parse((await gauntlet(["tournament", "get", id, "--json"])).stdout)).toEqual(
      await sdk().tournaments.get({ tournament_id: id }),
    );
    const cancelled = JSON.parse(
      (await gauntlet(["tournament", "cancel", id, "--json"])).stdout,
    ) as {
      status: string;
    };
    expect(cancelled.status).toBe("cancelled");
  });

  it("a league with no tournaments says so on standard error", async () => {
    const other = await createTestLeague(cli.server);
    expect(
      await gauntlet(["tournament", "list", other.league.id], { token: other.commissioner.token }),
    ).toEqual({ code: 0, stdout: "", stderr: "no tournaments\n" });
  }, 60_000);
});
