// gauntlet coworld show COWORLD
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import type { Deps, Factory } from "../../factory.ts";
import { shortTime, writeFields, writeJson } from "../../output.ts";
import { idVerbCommand } from "../id-verb.ts";

export interface ShowOptions {
  coworldId: string;
  json: boolean;
}

export async function runShow(options: ShowOptions, { io, client }: Deps): Promise<void> {
  const c = await client.coworlds.get({ coworld_id: options.coworldId });
  if (options.json) return writeJson(io, c);
  writeFields(io, [
    ["id", c.id],
    ["name", c.name],
    ["version", c.version],
    ["canonical", c.canonical],
    ["game", c.game_id],
    ["created", shortTime(c.created_at)],
  ]);
}

export function showCommand(
  parent: Command,
  factory: Factory,
  run: (options: ShowOptions, deps: Deps) => Promise<void> = runShow,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: "show",
    description: "Show one coworld",
    argument: ["<coworld>", "coworld id (cow_…)"],
    options: async (id) => ({ coworldId: await checkId("coworld", id, "COWORLD") }),
  });
}
