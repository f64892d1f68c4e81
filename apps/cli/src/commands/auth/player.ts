// gauntlet auth player list|create NAME|use PLAYER: the identities your policies compete under
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { playerIdOf } from "../../names/resolve.ts";
import { shortTime, writeJson, writeNote, writeTable } from "../../output.ts";
import { authDepsOf, type AuthDeps } from "./shared.ts";

export interface PlayerListOptions {
  json: boolean;
}

export async function runPlayerList(
  options: PlayerListOptions,
  { io, client }: Deps,
): Promise<void> {
  const players = await client.players.list();
  if (options.json) return writeJson(io, players);
  writeTable(
    io,
    ["id", "name", "created"],
    players.map((p) => [p.id, p.name, shortTime(p.created_at)]),
    "no players yet: gauntlet auth player create NAME",
  );
}

export interface PlayerCreateOptions {
  name: string;
  json: boolean;
}

export async function runPlayerCreate(
  options: PlayerCreateOptions,
  { io, client }: Deps,
): Promise<void> {
  const created = await client.players.create({ body: { name: options.name } });
  if (options.json) return writeJson(io, created);
  writeNote(io, `created player ${created.name} (${created.id})`);
}

export interface PlayerUseOptions {
  playerId: string;
  json: boolean;
}

/** Saves a player token in place of the user's, so later commands act as that player. */
export async function runPlayerUse(options: PlayerUseOptions, deps: AuthDeps): Promise<void> {
  const { io, server } = deps;
  const player_id = options.playerId;
  const login = await (await deps.client()).players.login({ player_id });
  const { saveCredential } = await import("@gauntlet/core");
  saveCredential(server, { token: login.token, subject_type: "player" });
  if (options.json) return writeJson(io, login);
  writeNote(io, `Now acting as player ${player_id} on ${server}.`);
}

export interface PlayerRuns {
  list: (options: PlayerListOptions, deps: Deps) => Promise<void>;
  create: (options: PlayerCreateOptions, deps: Deps) => Promise<void>;
  use: (options: PlayerUseOptions, deps: AuthDeps) => Promise<void>;
}

export function playerCommand(
  parent: Command,
  factory: Factory,
  runs: Partial<PlayerRuns> = {},
): Command {
  const { list = runPlayerList, create = runPlayerCreate, use = runPlayerUse } = runs;
  const player = parent
    .command("player")
    .description("Player identities: the names your policies compete under");
  player
    .command("list")
    .description("List your players")
    .action(async (_opts: unknown, cmd: Command) => {
      await list({ json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
  player
    .command("create")
    .description("Create a player")
    .argument("<name>", "the player's name")
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      await create({ name, json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
  player
    .command("use")
    .description("Act as one of your players: saves a 24-hour player token for the server")
    .argument("<player>", "one of your players: its name or id (ply_…)")
    .addHelpText("after", "\nRun `gauntlet auth login` to act as yourself again.")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const deps = await authDepsOf(factory, cmd);
      const playerId = await playerIdOf(await deps.client(), id, "PLAYER");
      await use({ playerId, json: wantsJson(cmd) }, deps);
    });
  return player;
}
