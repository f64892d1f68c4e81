// gauntlet league create --name N --game G [--division D...] [--description T] [--public]
import type { Command } from "commander";

import type { InputOf } from "@gauntlet/sdk";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { writeLeague } from "./show-league.ts";

type LeagueCreateInput = InputOf<"createLeague">["body"];

export interface CreateOptions {
  body: LeagueCreateInput;
  json: boolean;
}

export async function runCreate(options: CreateOptions, { io, client }: Deps): Promise<void> {
  const created = await client.leagues.create({ body: options.body });
  if (options.json) return writeJson(io, created);
  writeNote(io, `created league ${created.name}`);
  writeLeague(io, created);
}

interface Flags {
  name: string;
  game: string;
  division?: string[];
  description?: string;
  public?: boolean;
}

export function createCommand(
  parent: Command,
  factory: Factory,
  run: (options: CreateOptions, deps: Deps) => Promise<void> = runCreate,
): Command {
  return parent
    .command("create")
    .description("Create a league (its commissioner is you)")
    .requiredOption("--name <name>", "the league's name")
    .requiredOption("--game <game>", "the game it plays (game_…)")
    .option("--division <name...>", "division names, top first (default: one division)")
    .option("--description <text>", "what the league is about")
    .option("--public", "anyone may see it")
    .addHelpText(
      "after",
      "\nExample:\n  $ gauntlet league create --name Spring --game game_… --public \\\n      --division Premier Challenger",
    )
    .action(async (opts: Flags, cmd: Command) => {
      const game_id = await checkId("game", opts.game, "--game");
      const body: LeagueCreateInput = {
        name: opts.name,
        game_id,
        ...(opts.description !== undefined ? { description: opts.description } : {}),
        ...(opts.public ? { public: true } : {}),
        ...(opts.division
          ? { divisions: opts.division.map((name, level) => ({ name, level })) }
          : {}),
      };
      await run({ body, json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
