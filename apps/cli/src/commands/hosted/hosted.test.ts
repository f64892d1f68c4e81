// `gauntlet hosted …` without a process: what create parses its flags into, bad input as one plain
// line and exit 2, and a session on a terminal, off one and with --json, against a real server on
// a free port.
import { stripVTControlCharacters } from "node:util";

import { Command } from "commander";
import { describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { createCommand, type CreateOptions } from "./create.ts";

let tl: TestLeague;
let guest: { id: string; token: string };

const cli = useCliServer(async (server) => {
  tl = await createTestLeague(server);
  guest = await server.newUser();
  return tl.commissioner.token;
});
const { gauntlet, sdk, factory } = cli;

const COWORLD = "cow_00000000-0000-4000-8000-000000000000";

describe("parsing", () => {
  it("create: players as a number, the config as an object, spectators off by default", async () => {
    let got: CreateOptions | null = null;
    const program = new Command("gauntlet").option("--json").exitOverride();
    createCommand(program, factory(), (options) => {
      got = options;
      return Promise.resolve();
    });
    await program.parseAsync(["create", COWORLD, "--players", "3", "--config", '{"turns":9}'], {
      from: "user",
    });
    expect(got).toEqual({
      coworldId: COWORLD,
      variantId: null,
      players: 3,
      config: { turns: 9 },
      spectators: false,
      json: false,
    });
  });

  it.each([
    [
      ["hosted", "get", "nope"],
      "gauntlet: SESSION: 'nope' is not a valid id (expected ps_<uuid>, e.g. ps_00000000-0000-4000-8000-000000000000)\n",
    ],
    [
      ["hosted", "create", COWORLD, "--players", "0"],
      "gauntlet: --players: expected a positive whole number, got '0'\n",
    ],
    [
      ["hosted", "create", COWORLD, "--config", "[1]"],
      "gauntlet: --config: expected a JSON object, got '[1]'\n",
    ],
    [
      ["hosted", "replay", "cow_1", "https://example.org/r"],
      "gauntlet: COWORLD: 'cow_1' is not a valid id (expected cow_<uuid>, e.g. cow_00000000-0000-4000-8000-000000000000)\n",
    ],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr });
  });
});

describe("output", () => {
  it("hosts a game, joins it, shows, lists and ends it", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const created = await gauntlet(["hosted", "create", tl.coworldId, "--variant", "duel-small"]);
    expect(created.code, created.stderr).toBe(0);
    const id = /^session:\s+(ps_\S+)$/m.exec(created.stdout)?.[1] ?? "";
    expect(created.stdout).toMatch(/\nslots:\s+2\njoin:\s+http:\/\/\S+\nlobby:\s+http:\/\/\S+\n$/);
    expect(created.stderr).toBe(
      `Open the join page in a browser, or join from a program: gauntlet hosted join ${id}\n`,
    );

    const joined = await gauntlet(["hosted", "join", id]);
    expect(joined.stdout).toMatch(
      new RegExp(`^ws://\\S+/v2/play-sessions/${id}/socket\\?token=\\S+\\n$`),
    );
    expect(joined.stderr).toMatch(/^Slot 0 \(.+\): connect a player program to the address above/);
    const theirs = JSON.parse(
      (await gauntlet(["hosted", "join", id, "--json"], { token: guest.token })).stdout,
    ) as { slot: number };
    expect(theirs.slot).toBe(1);

    const shown = await gauntlet(["hosted", "get", id]);
    expect(shown.stdout).toMatch(new RegExp(`^id:\\s+${id}\\ncoworld:\\s+${tl.coworldId}\\n`));
    expect(shown.stdout).toMatch(/\nSLOT\s+PLAYER\s+USER\s+POLICY\s+JOINED\n0\s.+\n1\s.+\n$/);
    const tty = await gauntlet(["hosted", "get", id], { isTTY: true });
    expect(stripVTControlCharacters(tty.stdout)).toBe(shown.stdout);
    expect(tty.stdout).not.toBe(shown.stdout);
    expect(JSON.parse((await gauntlet(["hosted", "get", id, "--json"])).stdout)).toEqual(
      await sdk().hostedGames.get({ session_id: id }),
    );
    const list = await gauntlet(["hosted", "list"]);
    expect(list.stdout).toMatch(
      new RegExp(`^ID\\s+STATUS\\s+SLOTS\\s+JOINED\\s+CREATED\\n${id}\\s+\\S+\\s+2\\s+2\\s`),
    );

    const ended = await gauntlet(["hosted", "end", id]);
    expect(ended.stdout).toMatch(/\nstatus:\s+cancelled\n/);
  });
});
