// `gauntlet division list` without a process: parsing, the table on a terminal and off it, and
// --json, against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createClient } from "@gauntlet/sdk";
import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../test/cli-server.ts";

let fixture: TestLeague;

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server, {
    divisions: [{ name: "Premier" }, { name: "Challenger" }],
  });
  return fixture.commissioner.token;
});
const { gauntlet } = cli;

describe("gauntlet division list", () => {
  it("needs --league, and a league id, each said in one line with exit 2", async () => {
    expect(await gauntlet(["division", "list"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "gauntlet: --league: give a league (its name or id), or choose one with `gauntlet league use NAME`\n",
    });
    expect(await gauntlet(["division", "list", "--league", "league_Spring"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "gauntlet: --league: 'league_Spring' is not a valid id (expected league_<uuid>, e.g. league_00000000-0000-4000-8000-000000000000)\n",
    });
  });

  it("lists the divisions top first; --json is the API's response", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const league_id = fixture.league.id;
    const api = createClient({ env: {}, useSavedCredentials: false, baseUrl: cli.server.url });
    expect(
      JSON.parse((await gauntlet(["division", "list", "--league", league_id, "--json"])).stdout),
    ).toEqual(await api.divisions.list({ league_id }));

    const plain = await gauntlet(["division", "list", "--league", league_id]);
    const [premier, challenger] = fixture.divisions;
    expect(plain.stdout).toMatch(
      new RegExp(
        `^ID\\s+NAME\\s+LEVEL\\s+TYPE\\n${premier?.id}\\s+Premier\\s+1\\s+\\S+\\n${challenger?.id}\\s+Challenger\\s+2\\s+\\S+\\n$`,
      ),
    );
    const tty = await gauntlet(["division", "list", "--league", league_id], true);
    expect(tty.stdout.startsWith("\u001b[1mID")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(plain.stdout);
  });
});

describe("gauntlet division show", () => {
  it("shows a division by name and how its rounds, standings and scoring work", async () => {
    const league = fixture.league.id;
    const out = await gauntlet(["division", "show", "Challenger", "--league", league]);
    expect(out.code).toBe(0);
    const [, challenger] = fixture.divisions;
    expect(out.stdout).toMatch(new RegExp(`^id:\\s+${challenger?.id}\\nname:\\s+Challenger\\n`));
    expect(out.stdout).toMatch(
      /\nrounds:\s+A new round starts as soon as the previous one settles\./,
    );
    expect(out.stdout).toMatch(/\nstructure:\s+Round robin: /);
    expect(out.stdout).toMatch(/\nscoring:\s+Elo \(start 1500, K 32\)/);
    const json = JSON.parse(
      (await gauntlet(["division", "show", challenger?.id ?? "", "--json"])).stdout,
    ) as { id: string };
    expect(json.id).toBe(challenger?.id);
  });

  it("says in one line that a division name is unknown", async () => {
    const out = await gauntlet(["division", "show", "Nowhere", "--league", fixture.league.id]);
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stderr).toMatch(/^gauntlet: DIVISION: .*Nowhere/);
  });
});
