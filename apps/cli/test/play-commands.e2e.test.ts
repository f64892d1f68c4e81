// `gauntlet hosted …` and the live side of `gauntlet lobby …` against a real server, run as a
// child process: a hosted game joined by two programs and ended, a lobby changed, launched and
// ended, and bad input refused with one line and a non-zero exit.
import { rmSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  createTestLeague,
  startTestServer,
  type TestLeague,
  type TestServer,
} from "@gauntlet/server/testing";

import { json, newConfigHome, runCli } from "./run-cli.ts";

let server: TestServer;
let home: string;
let tl: TestLeague;
let guest: { id: string; token: string };

const cli = (args: readonly string[], token = tl.commissioner.token) =>
  runCli(args, {
    env: { GAUNTLET_SERVER: server.url, GAUNTLET_TOKEN: token, XDG_CONFIG_HOME: home },
  });

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
  tl = await createTestLeague(server);
  guest = await server.newUser();
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("gauntlet hosted", () => {
  it("hosts a game, joins its slots, lists, shows and ends it", async () => {
    const created = json(
      await cli([
        "hosted",
        "create",
        tl.coworldId,
        "--variant",
        "duel-small",
        "--config",
        '{"turn_timeout_ms": 5000}',
        "--json",
      ]),
    ) as { session_id: string; player_count: number; join_url: string };
    expect(created.player_count).toBe(2);
    const human = await cli(["hosted", "create", tl.coworldId]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/join:\s+http:\/\/.+\/play/);

    const mine = await cli(["hosted", "join", created.session_id]);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout.trim()).toMatch(
      new RegExp(`^ws://.+/v2/play-sessions/${created.session_id}/socket\\?token=`),
    );
    expect(mine.stderr).toContain("Slot 0");
    const theirs = json(
      await cli(["hosted", "join", created.session_id, "--json"], guest.token),
    ) as { slot: number };
    expect(theirs.slot).toBe(1);
    // Joining again gives the same slot back, at a new address.
    const rejoin = await cli(["hosted", "join", created.session_id], guest.token);
    expect(rejoin.code, rejoin.stdout).toBe(0);
    expect(rejoin.stderr).toContain("Slot 1");

    const shown = await cli(["hosted", "get", created.session_id]);
    expect(shown.stdout).toMatch(/episode:\s+ereq_/);
    expect((await cli(["hosted", "list"])).stdout).toContain(created.session_id);
    const notYours = await cli(["hosted", "end", created.session_id], guest.token);
    expect(notYours.code).not.toBe(0);
    expect(notYours.stderr.trim().split("\n")).toHaveLength(1);
    expect(
      (json(await cli(["hosted", "end", created.session_id, "--json"])) as { status: string })
        .status,
    ).toBe("cancelled");
    const ended = await cli(["hosted", "join", created.session_id]);
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toContain("has ended");
  }, 60_000);

  it("refuses bad input with one line and a non-zero exit", async () => {
    for (const args of [
      ["hosted", "get", "nope"],
      ["hosted", "create", tl.coworldId, "--players", "0"],
      ["hosted", "create", tl.coworldId, "--players", "9"],
      ["hosted", "create", tl.coworldId, "--config", "[1]"],
      ["hosted", "replay", tl.coworldId, "https://example.org/replay.jsonl"],
      ["hosted", "replay", tl.coworldId, "not a url"],
    ]) {
      const bad = await cli(args);
      expect(bad.code, args.join(" ")).not.toBe(0);
      expect(bad.stderr.trim().split("\n"), `${args.join(" ")}: ${bad.stderr}`).toHaveLength(1);
    }
  }, 60_000);
});

describe("gauntlet lobby, live", () => {
  it("changes a lobby, launches it for live play, and ends it", async () => {
    const created = json(
      await cli([
        "lobby",
        "create",
        tl.league.id,
        "--seat",
        `human:${guest.id}`,
        "--seat",
        "human_open",
        "--json",
      ]),
    ) as { id: string };
    const updated = await cli([
      "lobby",
      "update",
      created.id,
      "--variant",
      "duel-small",
      "--config",
      '{"turns": 5}',
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    const seat = json(await cli(["lobby", "seat", created.id, "1", "human_open", "--json"])) as {
      seats: { kind: string }[];
    };
    expect(seat.seats.map((s) => s.kind)).toEqual(["human", "human_open"]);
    expect((await cli(["lobby", "claim", created.id, "0"], guest.token)).code).toBe(0);
    const emptied = json(await cli(["lobby", "empty", created.id, "0", "--json"], guest.token)) as {
      seats: { claimed_at: string | null }[];
    };
    expect(emptied.seats[0]?.claimed_at).toBeNull();

    const launched = await cli(["lobby", "launch", created.id]);
    expect(launched.code, launched.stderr).toBe(0);
    expect(launched.stdout).toMatch(/live game:\s+ps_/);
    const sessionId = /live game:\s+(ps_\S+)/.exec(launched.stdout)?.[1] ?? "";
    const slot = json(await cli(["hosted", "join", sessionId, "--json"], guest.token)) as {
      slot: number;
    };
    expect(slot.slot).toBe(0);
    expect(
      (json(await cli(["lobby", "end", created.id, "--json"])) as { status: string }).status,
    ).toBe("cancelled");

    for (const args of [
      ["lobby", "seat", created.id, "x", "closed"],
      ["lobby", "seat", created.id, "0", "robot"],
      ["lobby", "update", created.id],
      ["lobby", "empty", created.id, "0"],
      ["lobby", "end", created.id],
    ]) {
      const bad = await cli(args);
      expect(bad.code, args.join(" ")).not.toBe(0);
      expect(bad.stderr.trim().split("\n"), `${args.join(" ")}: ${bad.stderr}`).toHaveLength(1);
    }
  }, 60_000);
});
