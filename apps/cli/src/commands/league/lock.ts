// gauntlet league lock LEAGUE [--unlock] [--game-version]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueOrCurrent } from "../../names/resolve.ts";
import { writeFields, writeJson } from "../../output.ts";

export interface LockOptions {
  leagueId: string;
  /** true locks, false opens. */
  locked: boolean;
  /** Also pin (or unpin) the game version. */
  gameVersion: boolean;
  json: boolean;
}

export async function runLock(options: LockOptions, { io, client }: Deps): Promise<void> {
  const locks = await client.leagues.updateLocks({
    league_id: options.leagueId,
    body: {
      submissions_locked: options.locked,
      ...(options.gameVersion ? { game_version_locked: options.locked } : {}),
    },
  });
  if (options.json) return writeJson(io, locks);
  writeFields(
    io,
    Object.entries(locks).map(([k, v]) => [k, typeof v === "object" ? JSON.stringify(v) : v]),
  );
}

export function lockCommand(
  parent: Command,
  factory: Factory,
  run: (options: LockOptions, deps: Deps) => Promise<void> = runLock,
): Command {
  return parent
    .command("lock")
    .description("Lock (or with --unlock, open) a league's submissions")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .option("--unlock", "open submissions again")
    .option("--game-version", "also pin (or with --unlock, unpin) the game version")
    .action(
      async (
        id: string | undefined,
        opts: { unlock?: boolean; gameVersion?: boolean },
        cmd: Command,
      ) => {
        const deps = await depsOf(factory, cmd);
        const options = {
          leagueId: await leagueOrCurrent(deps, id, "LEAGUE"),
          locked: opts.unlock !== true,
          gameVersion: opts.gameVersion === true,
          json: wantsJson(cmd),
        };
        await run(options, deps);
      },
    );
}
