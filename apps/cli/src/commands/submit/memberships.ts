// gauntlet memberships [--league L] [--division D] [--all]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { divisionIdOf, leagueIdOf } from "../../names/resolve.ts";
import { writeJson, writeTable } from "../../output.ts";
import { requireSignIn } from "./signed-in.ts";

export interface MembershipsOptions {
  leagueId: string | null;
  divisionId: string | null;
  /** Everyone's the caller can see, not only theirs. */
  all: boolean;
  json: boolean;
}

export async function runMemberships(
  options: MembershipsOptions,
  { io, client }: Deps,
): Promise<void> {
  const list = await client.memberships.list({
    ...(options.leagueId ? { league_id: options.leagueId } : {}),
    ...(options.divisionId ? { division_id: options.divisionId } : {}),
    ...(options.all ? {} : { mine: true }),
  });
  if (list.length === 0 && !options.all) await requireSignIn(client, "--all");
  if (options.json) return writeJson(io, list);
  writeTable(
    io,
    ["id", "division", "policy", "status", "champion"],
    list.map((m) => [
      m.id,
      m.division.name,
      `${m.policy_version.name}:v${m.policy_version.version}`,
      m.status,
      m.is_champion ? "yes" : "no",
    ]),
    "no memberships",
  );
}

export function membershipsCommand(
  parent: Command,
  factory: Factory,
  run: (options: MembershipsOptions, deps: Deps) => Promise<void> = runMemberships,
): Command {
  return parent
    .command("memberships")
    .description("Which policies play in which division (yours by default)")
    .option("--league <league>", "league id (league_…)")
    .option("--division <division>", "division id (div_…)")
    .option("--all", "everyone's you can see, not only yours")
    .action(async (opts: { league?: string; division?: string; all?: boolean }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        leagueId: opts.league ? await leagueIdOf(deps.client, opts.league, "--league") : null,
        divisionId: opts.division
          ? await divisionIdOf(deps.client, opts.division, "--division", opts.league)
          : null,
        all: opts.all === true,
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}
