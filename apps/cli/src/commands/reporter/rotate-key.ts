// gauntlet reporter rotate-key REPORTER
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import type { Deps, Factory } from "../../factory.ts";
import { writeFields, writeJson, writeNote } from "../../output.ts";
import { idVerbCommand } from "../id-verb.ts";

export interface RotateKeyOptions {
  reporterId: string;
  json: boolean;
}

export async function runRotateKey(options: RotateKeyOptions, { io, client }: Deps): Promise<void> {
  const rotated = await client.reporters.rotateKey({ reporter_id: options.reporterId });
  if (options.json) return writeJson(io, rotated);
  writeFields(io, [
    ["id", rotated.id],
    ["key", rotated.reporter_key],
  ]);
  writeNote(io, "the key is shown only now; the old key no longer works");
}

export function rotateKeyCommand(
  parent: Command,
  factory: Factory,
  run: (options: RotateKeyOptions, deps: Deps) => Promise<void> = runRotateKey,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: "rotate-key",
    description: "Replace a reporter's key; the old one stops working at once",
    argument: ["<reporter>", "reporter id (rptr_…)"],
    options: async (id) => ({ reporterId: await checkId("reporter", id, "REPORTER") }),
  });
}
