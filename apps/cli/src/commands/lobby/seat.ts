// gauntlet lobby seat LOBBY SEAT KIND
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { lobbyArg, parseSeat, SEAT_KINDS, seatArg, writeLobby, type SeatInput } from "./shared.ts";

export interface SeatOptions {
  lobbyId: string;
  position: number;
  seat: SeatInput;
  json: boolean;
}

export async function runSeat(options: SeatOptions, { io, client }: Deps): Promise<void> {
  const lobby = await client.lobbies.setSeat({
    lobby_id: options.lobbyId,
    position: options.position,
    body: options.seat,
  });
  writeLobby(io, lobby, options.json);
}

export function seatCommand(
  parent: Command,
  factory: Factory,
  run: (options: SeatOptions, deps: Deps) => Promise<void> = runSeat,
): Command {
  return parent
    .command("seat")
    .description("Change a seat of an open lobby (its claim is given up)")
    .argument("<lobby>", "lobby id (lby_…)")
    .argument("<seat>", "the seat (0 first)")
    .argument("<kind>", `${SEAT_KINDS} (PLAYER: a name or id)`)
    .action(async (id: string, seat: string, kind: string, _opts: unknown, cmd: Command) => {
      const lobbyId = await lobbyArg(id);
      const position = seatArg(seat);
      const deps = await depsOf(factory, cmd);
      const leagueId = async () => (await deps.client.lobbies.get({ lobby_id: lobbyId })).league_id;
      const options = {
        lobbyId,
        position,
        seat: await parseSeat(kind, deps.client, leagueId),
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}
