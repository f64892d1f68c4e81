// gauntlet tournament get TOURNAMENT
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import type { Deps, Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";
import { idVerbCommand } from "../id-verb.ts";
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
  return idVerbCommand(parent, factory, run, {
    name: "get",
    description: "Show a tournament with its bracket and winner",
    argument: ["<tournament>", "tournament id (tour_…)"],
    options: async (id) => ({ tournamentId: await checkId("tournament", id, "TOURNAMENT") }),
  });
}
