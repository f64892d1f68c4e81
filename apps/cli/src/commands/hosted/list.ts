// gauntlet hosted list
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface ListOptions {
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const sessions = await client.hostedGames.list({});
  if (options.json) return writeJson(io, sessions);
  writeTable(
    io,
    ["id", "status", "slots", "joined", "created"],
    sessions.map((s) => [
      s.session_id,
      s.status,
      s.player_count,
      s.players.filter((p) => p.joined_at !== null).length,
      shortTime(s.created_at),
    ]),
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("The sessions you created or hold a slot in, newest first")
    .action(async (_opts: unknown, cmd: Command) => {
      await run({ json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
