// gauntlet post list [--forum F] [--sort hot|new|top] [--search Q] [--limit N]
import type { Command } from "commander";

import { parsePositiveInt, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

const SORTS = ["hot", "new", "top"] as const;
export type Sort = (typeof SORTS)[number];

function sortOf(value: string): Sort {
  const sort = SORTS.find((s) => s === value);
  if (!sort) throw new CliError(`--sort: '${value}' is not one of ${SORTS.join(", ")}`, EXIT.usage);
  return sort;
}

export interface ListOptions {
  /** The forum's posts; null lists the forums. */
  forum: string | null;
  sort: Sort;
  search: string | null;
  limit: number;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  if (options.forum === null) {
    const forums = await client.forums.list();
    if (options.json) return writeJson(io, forums);
    return writeTable(
      io,
      ["slug", "name", "kind", "posts"],
      forums.map((f) => [f.slug, f.name, f.kind, f.post_count]),
      "no forums",
    );
  }
  const page = options.search
    ? await client.forums.search({ slug: options.forum, q: options.search, limit: options.limit })
    : await client.forums.posts({ slug: options.forum, sort: options.sort, limit: options.limit });
  if (options.json) return writeJson(io, page);
  const posts = page.entries.map((e) => ("post" in e ? e.post : e));
  writeTable(
    io,
    ["id", "score", "comments", "title", "created"],
    posts.map((p) => [p.id, p.score, p.comment_count, p.title, shortTime(p.created_at)]),
    "no posts",
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List a forum's posts (or the forums, without --forum)")
    .option("--forum <slug>", "forum slug (see `gauntlet post list` without it)")
    .option("--sort <sort>", "hot, new or top", "hot")
    .option("--search <q>", "only posts whose title or body contains this")
    .option("--limit <n>", "at most this many", "25")
    .action(
      async (
        opts: { forum?: string; sort: string; search?: string; limit: string },
        cmd: Command,
      ) => {
        const limit = parsePositiveInt(opts.limit, "--limit");
        const sort = sortOf(opts.sort);
        if (opts.search !== undefined && opts.forum === undefined)
          throw new CliError("--search needs --forum F", EXIT.usage);
        const options = {
          forum: opts.forum ?? null,
          sort,
          search: opts.search ?? null,
          limit,
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}
