// `gauntlet eval …` without a process: what create parses into (target and roster), bad input
// as one line and exit 2, and create/list/get/episodes/cancel on a terminal, off one and with
// --json, against a real server on a free port.
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { createTestLeague, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { createCommand, type CreateOptions } from "./create.ts";

let fixture: TestLeague;

const cli = useCliServer(async (server) => {
  fixture = await createTestLeague(server);
  await fixture.addPlayer("Alpha");
  await fixture.addPlayer("Beta", { baseline: "wanderer" });
  return fixture.commissioner.token;
});
const { gauntlet, sdk } = cli;

const parsedCreate = (args: readonly string[]) =>
  parsed<CreateOptions>(
    (parent, run) => createCommand(parent, cli.factory(), run),
    ["create", ...args],
  );

describe("parsing", () => {
  it("create: names pass as names, seats in the order policy, top, random", async () => {
    expect(
      await parsedCreate([
        "--league",
        "Spring League",
        "--division",
        "Premier",
        "--random",
        "--top",
        "2",
        "--policy",
        "my-bot:v3",
        "--episodes",
        "4",
        "--wait",
      ]),
    ).toEqual({
      body: {
        target: { league_name: "Spring League", division_name: "Premier" },
        roster: [
          { player: { policy_ref: "my-bot:v3" } },
          { player: { top_n: 2 } },
          { player: { random: true } },
        ],
        num_episodes: 4,
      },
      wait: true,
      json: false,
    });
  });

  it.each([
    [["eval", "create", "--policy", "a"], "give where to play: --coworld, --league or --division"],
    [
      ["eval", "create", "--coworld", "cow_x", "--league", "L", "--policy", "a"],
      "--coworld plays on the coworld alone: not with --league or --division",
    ],
    [
      ["eval", "create", "--league", "L"],
      "give the roster: --policy (repeatable), --top N or --random",
    ],
    [
      ["eval", "create", "--league", "L", "--top", "0"],
      "--top: expected a positive whole number, got '0'",
    ],
    [
      ["eval", "list", "--offset", "-1"],
      "--offset: expected 0 or a positive whole number, got '-1'",
    ],
    [
      ["eval", "get", "ereq_x"],
      "ID: 'ereq_x' is not a valid id (expected xreq_<uuid>, e.g. xreq_00000000-0000-4000-8000-000000000000)",
    ],
  ])("%j is refused in one line with exit 2", async (args, message) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr: `gauntlet: ${message}\n` });
  });
});

describe("output", () => {
  it("create, list, get, episodes and cancel: --json is the API's; tables bold only on a terminal", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const made = await gauntlet([
      "eval",
      "create",
      "--coworld",
      fixture.coworldId,
      "--policy",
      "greedy-alpha",
      "--policy",
      "wanderer-beta",
      "--episodes",
      "2",
      "--json",
    ]);
    expect(made.code).toBe(0);
    const created = JSON.parse(made.stdout) as { id: string; episode_count: number };
    expect(created.episode_count).toBe(2);
    const api = sdk();
    expect(JSON.parse((await gauntlet(["eval", "get", created.id, "--json"])).stdout)).toEqual(
      await api.experienceRequests.get({ experience_request_id: created.id }),
    );
    expect(JSON.parse((await gauntlet(["eval", "episodes", created.id, "--json"])).stdout)).toEqual(
      await api.experienceRequests.episodes({ experience_request_id: created.id }),
    );
    expect(JSON.parse((await gauntlet(["eval", "list", "--json"])).stdout)).toEqual(
      await api.experienceRequests.list({ limit: 20, offset: 0 }),
    );

    const list = await gauntlet(["eval", "list"]);
    expect(list.stdout).toMatch(
      new RegExp(
        `^ID\\s+STATUS\\s+COWORLD\\s+SETTLED\\s+CREATED\\n${created.id}\\s+\\w+\\s+\\S+\\s+0/2\\s`,
      ),
    );
    const tty = await gauntlet(["eval", "list"], { isTTY: true });
    expect(tty.stdout).not.toBe(list.stdout);
    expect(stripVTControlCharacters(tty.stdout)).toBe(list.stdout);

    const get = await gauntlet(["eval", "get", created.id]);
    expect(get.stdout).toMatch(
      new RegExp(`^id:\\s+${created.id}\\n[\\s\\S]*\\nepisodes:\\s+2: 0 completed, `),
    );
    expect(get.stdout).toMatch(/\nEPISODE\s+QUEUE\s+SCORES\s+RESULT\s+CREATED\n/);
    // Both still queued: each shows its place in the work queue's order.
    expect(get.stdout.match(/\nereq_\S+\s+#\d+\s/g)).toHaveLength(2);
    // Each seat's record; both seats are the commissioner's.
    expect(get.stdout).toMatch(
      /\nSEAT\s+PLAYER\s+WON\s+LOST\s+DRAWN\s+FAILED\s+MEAN SCORE\n0 \*\s+\S.*\n1 \*\s+\S.*\n\* your seat\n$/,
    );

    const cancelled = await gauntlet(["eval", "cancel", created.id]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(/\nstatus:\s+cancelled\n/);
  });

  it("more than one page says how to see the rest on standard error", async () => {
    // Two of the commissioner's evaluations at least, whatever ran before.
    for (let n = 0; n < 2; n++)
      await sdk().experienceRequests.create({
        body: {
          target: { coworld_id: fixture.coworldId },
          roster: [
            { player: { policy_ref: "greedy-alpha" } },
            { player: { policy_ref: "wanderer-beta" } },
          ],
          num_episodes: 1,
        },
      });
    const { total_count } = await sdk().experienceRequests.list({ limit: 1, offset: 0 });
    const list = await gauntlet(["eval", "list", "--limit", "1"]);
    expect(list.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(list.stderr).toBe(`${total_count} in all: --offset 1 for more\n`);
  });
});
