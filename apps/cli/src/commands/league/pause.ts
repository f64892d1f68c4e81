// gauntlet league pause LEAGUE [--resume]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueOrCurrent } from "../../names/resolve.ts";
import { writeJson, writeNote } from "../../output.ts";

export interface PauseOptions {
  leagueId: string;
  /** true resumes the rounds, false pauses them. */
  resume: boolean;
  json: boolean;
}

export async function runPause(options: PauseOptions, { io, client }: Deps): Promise<void> {
  const updated = await client.leagues.setRoundsPaused({
    league_id: options.leagueId,
    body: { paused: !options.resume },
  });
  if (options.json) return writeJson(io, updated);
  writeNote(
    io,
    options.resume ? `rounds of ${updated.name} resumed` : `rounds of ${updated.name} paused`,
  );
}

export function pauseCommand(
  parent: Command,
  factory: Factory,
  run: (options: PauseOptions, deps: Deps) => Promise<void> = runPause,
): Command {
  return parent
    .command("pause")
    .description("Pause (or with --resume, resume) a league's rounds")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .option("--resume", "resume rounds")
    .action(async (id: string | undefined, opts: { resume?: boolean }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        leagueId: await leagueOrCurrent(deps, id, "LEAGUE"),
        resume: opts.resume === true,
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}
