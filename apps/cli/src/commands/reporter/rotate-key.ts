// gauntlet reporter rotate-key REPORTER
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeFields, writeJson, writeNote } from "../../output.ts";

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
  return parent
    .command("rotate-key")
    .description("Replace a reporter's key; the old one stops working at once")
    .argument("<reporter>", "reporter id (rptr_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const options = {
        reporterId: await checkId("reporter", id, "REPORTER"),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
