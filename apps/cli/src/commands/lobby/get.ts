// gauntlet lobby get LOBBY
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { lobbyArg, writeLobby } from "./shared.ts";

export interface GetOptions {
  lobbyId: string;
  json: boolean;
}

export async function runGet(options: GetOptions, { io, client }: Deps): Promise<void> {
  writeLobby(io, await client.lobbies.get({ lobby_id: options.lobbyId }), options.json);
}

export function getCommand(
  parent: Command,
  factory: Factory,
  run: (options: GetOptions, deps: Deps) => Promise<void> = runGet,
): Command {
  return parent
    .command("get")
    .description("Show a lobby and its seats")
    .argument("<lobby>", "lobby id (lby_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const options = { lobbyId: await lobbyArg(id), json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}
