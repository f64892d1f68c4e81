// gauntlet coworld list [--name] [--canonical]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface ListOptions {
  name: string | null;
  canonical: boolean;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const list = await client.coworlds.list({
    ...(options.name ? { name: options.name } : {}),
    ...(options.canonical ? { canonical_only: true } : {}),
  });
  if (options.json) return writeJson(io, list);
  writeTable(
    io,
    ["id", "name", "version", "canonical", "created"],
    list.map((c) => [c.id, c.name, c.version, c.canonical ? "yes" : "no", shortTime(c.created_at)]),
    "no coworlds",
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List coworlds")
    .option("--name <name>", "only versions of this coworld")
    .option("--canonical", "only the canonical version of each")
    .action(async (opts: { name?: string; canonical?: boolean }, cmd: Command) => {
      const options = {
        name: opts.name ?? null,
        canonical: opts.canonical === true,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
