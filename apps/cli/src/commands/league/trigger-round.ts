// gauntlet league trigger-round LEAGUE [--division D]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { divisionIdOf, leagueOrCurrent } from "../../names/resolve.ts";
import { writeJson, writeNote, writeTable } from "../../output.ts";

export interface TriggerRoundOptions {
  leagueId: string;
  /** Only this division; null for every division. */
  divisionId: string | null;
  json: boolean;
}

export async function runTriggerRound(
  options: TriggerRoundOptions,
  { io, client }: Deps,
): Promise<void> {
  const result = await client.leagues.triggerRound({
    league_id: options.leagueId,
    body: options.divisionId ? { division_id: options.divisionId } : {},
  });
  if (options.json) return writeJson(io, result);
  writeTable(
    io,
    ["round", "division", "number", "status"],
    result.rounds.map((r) => [r.id, r.division.name, r.round_number, r.status]),
    "no round started",
  );
  for (const skip of result.skipped) writeNote(io, `skipped ${skip.division_id}: ${skip.reason}`);
}

export function triggerRoundCommand(
  parent: Command,
  factory: Factory,
  run: (options: TriggerRoundOptions, deps: Deps) => Promise<void> = runTriggerRound,
): Command {
  return parent
    .command("trigger-round")
    .description("Start a round now in every division (or one)")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .option("--division <division>", "only this division (its name or id)")
    .action(async (id: string | undefined, opts: { division?: string }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const leagueId = await leagueOrCurrent(deps, id, "LEAGUE");
      const options = {
        leagueId,
        divisionId: opts.division
          ? await divisionIdOf(deps.client, opts.division, "--division", leagueId)
          : null,
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}
