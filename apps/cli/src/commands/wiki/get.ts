// gauntlet wiki get WIKI PAGE
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeNote } from "../../output.ts";

export interface GetOptions {
  slug: string;
  page: string;
  json: boolean;
}

export async function runGet(options: GetOptions, { io, client }: Deps): Promise<void> {
  const p = await client.wikis.getPage({ slug: options.slug, page: options.page });
  if (options.json) return writeJson(io, p);
  io.out.write(p.body.endsWith("\n") ? p.body : `${p.body}\n`);
  writeNote(
    io,
    `revision ${p.revision_id} (${p.revision_count} in all), ${shortTime(p.updated_at)}`,
  );
}

export function getCommand(
  parent: Command,
  factory: Factory,
  run: (options: GetOptions, deps: Deps) => Promise<void> = runGet,
): Command {
  return parent
    .command("get")
    .description("Print a page's markdown")
    .argument("<wiki>", "wiki slug (a coworld's name)")
    .argument("<page>", "page name")
    .action(async (slug: string, page: string, _opts: unknown, cmd: Command) => {
      await run({ slug, page, json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
