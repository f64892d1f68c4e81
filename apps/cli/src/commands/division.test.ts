// `gauntlet division list` without a process: parsing, the table on a terminal and off it, and
// --json, against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { createClient } from "@gauntlet/sdk";
import {
  createTestLeague,
  startTestServer,
  type TestLeague,
  type TestServer,
} from "@gauntlet/server/testing";

import { runInProcess } from "../../test/in-process.ts";

let server: TestServer;
let fixture: TestLeague;

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  fixture = await createTestLeague(server, {
    divisions: [{ name: "Premier" }, { name: "Challenger" }],
  });
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const gauntlet = (args: readonly string[], isTTY = false) =>
  runInProcess(args, { url: server.url, token: fixture.commissioner.token, isTTY });

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
    const api = createClient({ env: {}, useSavedCredentials: false, baseUrl: server.url });
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
