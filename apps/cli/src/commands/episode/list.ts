// gauntlet episode list [--division D] [--round R] [--status S] [--limit N]
import type { Command } from "commander";

import type { InputOf } from "@gauntlet/sdk";

import { checkId, parsePositiveInt, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface ListOptions {
  query: NonNullable<InputOf<"listEpisodeRequests">>;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const page = await client.episodeRequests.list(options.query);
  if (options.json) return writeJson(io, page);
  writeTable(
    io,
    ["id", "status", "round", "scores", "created"],
    page.entries.map((e) => [
      e.id,
      e.status,
      e.round_id,
      e.scores.map((s) => s.score).join(" "),
      shortTime(e.created_at),
    ]),
    "no episodes",
  );
}

interface Flags {
  division?: string;
  round?: string;
  status?: string;
  limit: string;
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List episodes, newest first")
    .option("--division <division>", "division id (div_…)")
    .option("--round <round>", "round id (round_…)")
    .option("--status <status>", "pending, submitted, running, completed, failed or cancelled")
    .option("--limit <n>", "at most this many", "20")
    .action(async (opts: Flags, cmd: Command) => {
      const query = {
        ...(opts.division
          ? { division_id: await checkId("division", opts.division, "--division") }
          : {}),
        ...(opts.round ? { round_id: await checkId("round", opts.round, "--round") } : {}),
        // The server names the statuses it knows (422 → one line); the CLI does not repeat them.
        ...(opts.status ? { status: opts.status as "pending" } : {}),
        limit: parsePositiveInt(opts.limit, "--limit"),
      };
      await run({ query, json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
