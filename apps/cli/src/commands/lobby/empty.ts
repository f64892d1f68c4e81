// gauntlet lobby empty LOBBY SEAT
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { lobbyArg, seatArg, writeLobby } from "./shared.ts";

export interface EmptyOptions {
  lobbyId: string;
  position: number;
  json: boolean;
}

export async function runEmpty(options: EmptyOptions, { io, client }: Deps): Promise<void> {
  const lobby = await client.lobbies.removeSeatPlayer({
    lobby_id: options.lobbyId,
    position: options.position,
  });
  writeLobby(io, lobby, options.json);
}

export function emptyCommand(
  parent: Command,
  factory: Factory,
  run: (options: EmptyOptions, deps: Deps) => Promise<void> = runEmpty,
): Command {
  return parent
    .command("empty")
    .description("Take the person out of a claimed seat (yours, or anyone's in a lobby you manage)")
    .argument("<lobby>", "lobby id (lby_…)")
    .argument("<seat>", "the seat (0 first)")
    .action(async (id: string, seat: string, _opts: unknown, cmd: Command) => {
      const options = {
        lobbyId: await lobbyArg(id),
        position: seatArg(seat),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
