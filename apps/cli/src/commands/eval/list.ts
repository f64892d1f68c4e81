// gauntlet eval list [--mine] [--limit N] [--offset N]
import type { Command } from "commander";

import { parsePositiveInt, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeNote, writeTable } from "../../output.ts";
import { dim } from "../../terminal.ts";
import { progressOf } from "./view.ts";

export interface ListOptions {
  limit: number;
  offset: number;
  mine: boolean;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const page = await client.experienceRequests.list({
    limit: options.limit,
    offset: options.offset,
    ...(options.mine ? { mine: true } : {}),
  });
  if (options.json) return writeJson(io, page);
  writeTable(
    io,
    ["id", "status", "coworld", "settled", "created"],
    page.entries.map((r) => [
      r.id,
      r.status,
      r.coworld_name,
      progressOf(r),
      shortTime(r.created_at),
    ]),
    "no evaluations",
  );
  if (page.total_count > page.offset + page.entries.length)
    writeNote(
      io,
      dim(
        `${page.total_count} in all: --offset ${page.offset + page.entries.length} for more`,
        io.err,
      ),
    );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List your evaluations, newest first")
    .option("--mine", "only your own (for admins, who see everyone's)")
    .option("--limit <n>", "at most this many (1–200)", "20")
    .option("--offset <n>", "skip this many", "0")
    .action(async (opts: { mine?: boolean; limit: string; offset: string }, cmd: Command) => {
      const offset = Number(opts.offset);
      if (!Number.isInteger(offset) || offset < 0)
        throw new CliError(
          `--offset: expected 0 or a positive whole number, got '${opts.offset}'`,
          EXIT.usage,
        );
      const options = {
        limit: parsePositiveInt(opts.limit, "--limit"),
        offset,
        mine: opts.mine === true,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
