// gauntlet tournament get TOURNAMENT
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";
import { writeTournament } from "./show.ts";

export interface GetOptions {
  tournamentId: string;
  json: boolean;
}

export async function runGet(options: GetOptions, { io, client }: Deps): Promise<void> {
  const t = await client.tournaments.get({ tournament_id: options.tournamentId });
  if (options.json) return writeJson(io, t);
  writeTournament(io, t);
}

export function getCommand(
  parent: Command,
  factory: Factory,
  run: (options: GetOptions, deps: Deps) => Promise<void> = runGet,
): Command {
  return parent
    .command("get")
    .description("Show a tournament with its bracket and winner")
    .argument("<tournament>", "tournament id (tour_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const options = {
        tournamentId: await checkId("tournament", id, "TOURNAMENT"),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
