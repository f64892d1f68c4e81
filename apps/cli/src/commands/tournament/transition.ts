// gauntlet tournament lock|start|advance|cancel TOURNAMENT: one step of a tournament's life.
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import type { Deps, Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";
import { idVerbCommand } from "../id-verb.ts";
import { writeTournament } from "./show.ts";

export type Transition = "lock" | "start" | "advance" | "cancel";

export interface TransitionOptions {
  verb: Transition;
  tournamentId: string;
  json: boolean;
}

export async function runTransition(
  options: TransitionOptions,
  { io, client }: Deps,
): Promise<void> {
  const result = await client.tournaments[options.verb]({ tournament_id: options.tournamentId });
  if (options.json) return writeJson(io, result);
  writeTournament(io, result);
}

export function transitionCommand(
  parent: Command,
  factory: Factory,
  verb: Transition,
  description: string,
  run: (options: TransitionOptions, deps: Deps) => Promise<void> = runTransition,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: verb,
    description,
    argument: ["<tournament>", "tournament id (tour_…)"],
    options: async (id) => ({ verb, tournamentId: await checkId("tournament", id, "TOURNAMENT") }),
  });
}
