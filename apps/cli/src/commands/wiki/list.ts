// gauntlet wiki list
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeTable } from "../../output.ts";

export interface ListOptions {
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const wikis = await client.wikis.list();
  if (options.json) return writeJson(io, wikis);
  writeTable(
    io,
    ["slug", "name", "pages"],
    wikis.map((w) => [w.slug, w.name, w.page_count]),
    "no wikis",
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List the wikis")
    .action(async (_opts: unknown, cmd: Command) => {
      await run({ json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
