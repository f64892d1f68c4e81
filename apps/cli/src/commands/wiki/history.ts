// gauntlet wiki history WIKI PAGE [--limit N]
import type { Command } from "commander";

import { parsePositiveInt, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface HistoryOptions {
  slug: string;
  page: string;
  limit: number;
  json: boolean;
}

export async function runHistory(options: HistoryOptions, { io, client }: Deps): Promise<void> {
  const { id } = await client.wikis.getPage({ slug: options.slug, page: options.page });
  const revisions = await client.wikis.revisions({ page_id: id, limit: options.limit });
  if (options.json) return writeJson(io, revisions.entries);
  writeTable(
    io,
    ["revision", "author", "when", "summary"],
    revisions.entries.map((r) => [
      r.id,
      r.author_user_id,
      shortTime(r.created_at),
      r.summary ?? "",
    ]),
    "no revisions",
  );
}

export function historyCommand(
  parent: Command,
  factory: Factory,
  run: (options: HistoryOptions, deps: Deps) => Promise<void> = runHistory,
): Command {
  return parent
    .command("history")
    .description("A page's revisions, newest first")
    .argument("<wiki>", "wiki slug (a coworld's name)")
    .argument("<page>", "page name")
    .option("--limit <n>", "at most this many", "50")
    .action(async (slug: string, page: string, opts: { limit: string }, cmd: Command) => {
      const options = {
        slug,
        page,
        limit: parsePositiveInt(opts.limit, "--limit"),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
