// gauntlet league list [--game G] [--mine]
import type { Command } from "commander";

import { allItems } from "@gauntlet/sdk";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeTable } from "../../output.ts";

export interface ListOptions {
  gameId: string | null;
  mine: boolean;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  // Every page of the listing (the server answers a page at a time).
  const leagues = await allItems(
    client.leagues.list.iterate({
      ...(options.gameId ? { game_id: options.gameId } : {}),
      ...(options.mine ? { mine: true } : {}),
    }),
  );
  if (options.json) return writeJson(io, leagues);
  writeTable(
    io,
    ["id", "name", "game", "public", "rounds"],
    leagues.map((l) => [
      l.id,
      l.name,
      l.game.name,
      l.public ? "yes" : "no",
      l.rounds_paused_at ? "paused" : "running",
    ]),
    "no leagues",
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List the leagues you can see")
    .option("--game <game>", "only leagues of this game (game_…)")
    .option("--mine", "only leagues you commission")
    .action(async (opts: { game?: string; mine?: boolean }, cmd: Command) => {
      const options = {
        gameId: opts.game ? await checkId("game", opts.game, "--game") : null,
        mine: opts.mine === true,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
