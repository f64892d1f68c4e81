// gauntlet lobby leave|start|launch|end|cancel LOBBY: one step of a lobby's life.
import type { Command } from "commander";

import type { Deps, Factory } from "../../factory.ts";
import { idVerbCommand } from "../id-verb.ts";
import { lobbyArg, writeLobby } from "./shared.ts";

export type Transition = "leave" | "start" | "launch" | "end" | "cancel";

export interface TransitionOptions {
  verb: Transition;
  lobbyId: string;
  json: boolean;
}

export async function runTransition(
  options: TransitionOptions,
  { io, client }: Deps,
): Promise<void> {
  writeLobby(io, await client.lobbies[options.verb]({ lobby_id: options.lobbyId }), options.json);
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
    argument: ["<lobby>", "lobby id (lby_…)"],
    options: async (id) => ({ verb, lobbyId: await lobbyArg(id) }),
  });
}
