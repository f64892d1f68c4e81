// gauntlet submissions [--league L] [--all]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueIdOf } from "../../names/resolve.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";
import { requireSignIn } from "./signed-in.ts";

export interface SubmissionsOptions {
  leagueId: string | null;
  /** Everyone's the caller can see, not only theirs. */
  all: boolean;
  json: boolean;
}

export async function runSubmissions(
  options: SubmissionsOptions,
  { io, client }: Deps,
): Promise<void> {
  const list = await client.leagueSubmissions.list({
    ...(options.leagueId ? { league_id: options.leagueId } : {}),
    ...(options.all ? {} : { mine: true }),
  });
  if (list.length === 0 && !options.all) await requireSignIn(client, "--all");
  if (options.json) return writeJson(io, list);
  writeTable(
    io,
    ["id", "league", "policy", "status", "created"],
    list.map((s) => [
      s.id,
      s.league.name,
      `${s.policy_version.name}:v${s.policy_version.version}`,
      s.status,
      shortTime(s.created_at),
    ]),
    "no submissions",
  );
}

export function submissionsCommand(
  parent: Command,
  factory: Factory,
  run: (options: SubmissionsOptions, deps: Deps) => Promise<void> = runSubmissions,
): Command {
  return parent
    .command("submissions")
    .description("League submissions (yours by default)")
    .option("--league <league>", "league id (league_…)")
    .option("--all", "everyone's you can see, not only yours")
    .action(async (opts: { league?: string; all?: boolean }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        leagueId: opts.league ? await leagueIdOf(deps.client, opts.league, "--league") : null,
        all: opts.all === true,
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}
