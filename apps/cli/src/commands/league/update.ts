// gauntlet league update LEAGUE [--name N] [--description T] [--[no-]public] [--[no-]hidden]
import type { Command } from "commander";

import type { InputOf } from "@gauntlet/sdk";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueOrCurrent } from "../../names/resolve.ts";
import { writeJson } from "../../output.ts";
import { writeLeague } from "./show-league.ts";

export interface UpdateOptions {
  leagueId: string;
  body: InputOf<"updateLeague">["body"];
  json: boolean;
}

export async function runUpdate(options: UpdateOptions, { io, client }: Deps): Promise<void> {
  const updated = await client.leagues.update({ league_id: options.leagueId, body: options.body });
  if (options.json) return writeJson(io, updated);
  writeLeague(io, updated);
}

interface Flags {
  name?: string;
  description?: string;
  public?: boolean;
  hidden?: boolean;
}

export function updateCommand(
  parent: Command,
  factory: Factory,
  run: (options: UpdateOptions, deps: Deps) => Promise<void> = runUpdate,
): Command {
  return parent
    .command("update")
    .description("Change a league's name, description or visibility")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .option("--name <name>", "new name")
    .option("--description <text>", "new description")
    .option("--public", "anyone may see it")
    .option("--no-public", "only members see it")
    .option("--hidden", "hide it from lists")
    .option("--no-hidden", "show it in lists")
    .action(async (id: string | undefined, opts: Flags, cmd: Command) => {
      const body = {
        ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(opts.description !== undefined ? { description: opts.description } : {}),
        ...(opts.public !== undefined ? { public: opts.public } : {}),
        ...(opts.hidden !== undefined ? { hidden: opts.hidden } : {}),
      };
      if (Object.keys(body).length === 0)
        throw new CliError(
          "nothing to update: pass --name, --description, --public/--no-public or --hidden/--no-hidden",
          EXIT.usage,
        );
      const deps = await depsOf(factory, cmd);
      const leagueId = await leagueOrCurrent(deps, id, "LEAGUE");
      await run({ leagueId, body, json: wantsJson(cmd) }, deps);
    });
}
