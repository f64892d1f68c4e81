// gauntlet coworld show COWORLD
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeFields, writeJson } from "../../output.ts";

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
  return parent
    .command("show")
    .description("Show one coworld")
    .argument("<coworld>", "coworld id (cow_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const options = { coworldId: await checkId("coworld", id, "COWORLD"), json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}
