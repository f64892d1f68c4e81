// The player-state files of an episode's work directory: what the game is told, and that neither
// writing a start state nor reading a new one follows a link a game (of this or an earlier run)
// left there — the runner would otherwise write or read a file of its own host.
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { readStateOutputs, writeStateInputs } from "./player-state-files.ts";

let dir: string;
let outside: string;
const uri = (name: string) => pathToFileURL(join(dir, name)).href;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pstate-"));
  outside = await mkdtemp(join(tmpdir(), "pstate-host-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("player state files", () => {
  it("names each seat's files to the game and reads back only kept seats' regular files", async () => {
    const states = [
      { start: Buffer.from('{"games_played":2}'), keep: true },
      null,
      { start: null, keep: false },
    ];
    const env = await writeStateInputs(dir, states, uri);
    expect(JSON.parse(env.COGAME_PLAYER_STATE ?? "")).toEqual([
      { in: uri("player_state_in_0"), out: uri("player_state_out_0") },
      null,
      { in: null, out: null },
    ]);
    expect(await readFile(join(dir, "player_state_in_0"), "utf8")).toBe('{"games_played":2}');
    await writeFile(join(dir, "player_state_out_0"), '{"games_played":3}');
    await writeFile(join(dir, "player_state_out_2"), "not kept");
    const out = await readStateOutputs(dir, states, 3);
    expect(out.map((b) => b?.toString() ?? null)).toEqual(['{"games_played":3}', null, null]);
  });

  it("follows no link: neither a planted start file nor a linked new state", async () => {
    const hostFile = join(outside, "runner-secret");
    await writeFile(hostFile, "HOST-ONLY");
    // An earlier run's game left links where the runner writes and reads.
    await symlink(hostFile, join(dir, "player_state_in_0"));
    await symlink(hostFile, join(dir, "player_state_out_1"));
    const states = [
      { start: Buffer.from("new start"), keep: true },
      { start: null, keep: true },
    ];
    await writeStateInputs(dir, states, uri);
    expect(await readFile(hostFile, "utf8")).toBe("HOST-ONLY");
    expect(await readFile(join(dir, "player_state_in_0"), "utf8")).toBe("new start");
    // The game (running now) links its out file to the host's.
    await symlink(hostFile, join(dir, "player_state_out_1"));
    const out = await readStateOutputs(dir, states, 2);
    expect(out).toEqual([null, null]);
  });
});
