// gauntlet reporter get REPORTER
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import type { Deps, Factory } from "../../factory.ts";
import { shortTime, writeFields, writeJson } from "../../output.ts";
import { idVerbCommand } from "../id-verb.ts";

export interface GetOptions {
  reporterId: string;
  json: boolean;
}

export async function runGet(options: GetOptions, { io, client }: Deps): Promise<void> {
  const r = await client.reporters.get({ reporter_id: options.reporterId });
  if (options.json) return writeJson(io, r);
  writeFields(io, [
    ["id", r.id],
    ["name", r.name],
    ["description", r.description],
    ["type", r.type],
    ["mode", r.mode],
    ["owner", r.user_id],
    ["runs", r.run_count],
    ["outputs", r.output_count],
    ["created", shortTime(r.created)],
    ["key rotated", shortTime(r.key_rotated_at)],
  ]);
}

export function getCommand(
  parent: Command,
  factory: Factory,
  run: (options: GetOptions, deps: Deps) => Promise<void> = runGet,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: "get",
    description: "Show one reporter",
    argument: ["<reporter>", "reporter id (rptr_…)"],
    options: async (id) => ({ reporterId: await checkId("reporter", id, "REPORTER") }),
  });
}
