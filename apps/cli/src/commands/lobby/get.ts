// gauntlet lobby get LOBBY
import type { Command } from "commander";

import type { Deps, Factory } from "../../factory.ts";
import { idVerbCommand } from "../id-verb.ts";
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
  return idVerbCommand(parent, factory, run, {
    name: "get",
    description: "Show a lobby and its seats",
    argument: ["<lobby>", "lobby id (lby_…)"],
    options: async (id) => ({ lobbyId: await lobbyArg(id) }),
  });
}
