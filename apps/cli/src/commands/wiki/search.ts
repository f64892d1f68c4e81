// gauntlet wiki search WIKI QUERY
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface SearchOptions {
  slug: string;
  query: string;
  json: boolean;
}

export async function runSearch(options: SearchOptions, { io, client }: Deps): Promise<void> {
  const hits = await client.wikis.search({ slug: options.slug, q: options.query });
  if (options.json) return writeJson(io, hits.entries);
  writeTable(
    io,
    ["page", "updated", "snippet"],
    hits.entries.map((h) => [h.page.page, shortTime(h.page.updated_at), h.snippet]),
    "no pages found",
  );
}

export function searchCommand(
  parent: Command,
  factory: Factory,
  run: (options: SearchOptions, deps: Deps) => Promise<void> = runSearch,
): Command {
  return parent
    .command("search")
    .description("Pages of a wiki whose name or text contains QUERY")
    .argument("<wiki>", "wiki slug (a coworld's name)")
    .argument("<query>", "text to look for (case-insensitive)")
    .action(async (slug: string, query: string, _opts: unknown, cmd: Command) => {
      if (!query.trim()) throw new CliError("QUERY: give some text to look for", EXIT.usage);
      await run({ slug, query, json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
