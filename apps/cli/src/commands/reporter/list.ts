// gauntlet reporter list [-q] [--type] [--mode] [--author] [--limit]
import type { Command } from "commander";

import { parsePositiveInt, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";
import { checkMode, type Mode } from "./shared.ts";

export interface ListOptions {
  query: string | null;
  type: string | null;
  mode: Mode | null;
  author: string | null;
  limit: number;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const rows = await client.reporters.list({
    limit: options.limit,
    ...(options.query ? { q: options.query } : {}),
    ...(options.type ? { type: options.type } : {}),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.author ? { author: options.author } : {}),
  });
  if (options.json) return writeJson(io, rows);
  writeTable(
    io,
    ["id", "name", "type", "mode", "runs", "outputs", "created"],
    rows.map((r) => [
      r.id,
      r.name,
      r.type,
      r.mode,
      r.run_count,
      r.output_count,
      shortTime(r.created),
    ]),
    "no reporters",
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List reporters, newest first")
    .option("-q, --query <words>", "words of the name or description")
    .option("--type <type>", "only this type")
    .option("--mode <mode>", "manual or live")
    .option("--author <user>", "the owner's user id or email")
    .option("--limit <n>", "at most this many", "50")
    .action(
      async (
        opts: { query?: string; type?: string; mode?: string; author?: string; limit: string },
        cmd: Command,
      ) => {
        const options = {
          query: opts.query ?? null,
          type: opts.type ?? null,
          mode: checkMode(opts.mode, "--mode") ?? null,
          author: opts.author ?? null,
          limit: parsePositiveInt(opts.limit, "--limit"),
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}
