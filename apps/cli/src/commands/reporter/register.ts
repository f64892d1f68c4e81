// gauntlet reporter register NAME [--description] [--type] [--mode]: creates the reporter, or
// updates the caller's reporter of that name (its key is shown only when created).
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeFields, writeJson, writeNote } from "../../output.ts";
import { checkMode, type Mode } from "./shared.ts";

export interface RegisterOptions {
  name: string;
  description: string | null;
  type: string;
  mode: Mode;
  json: boolean;
}

export async function runRegister(options: RegisterOptions, { io, client }: Deps): Promise<void> {
  const created = await client.reporters.register({
    body: {
      name: options.name,
      type: options.type,
      mode: options.mode,
      ...(options.description ? { description: options.description } : {}),
    },
  });
  if (options.json) return writeJson(io, created);
  // Registering a name you already have updates that reporter: its key stays as it was.
  if (created.reporter_key === null) {
    writeFields(io, [
      ["id", created.id],
      ["name", created.name],
    ]);
    return writeNote(
      io,
      "updated your reporter of that name; its key is unchanged (`gauntlet reporter rotate-key` replaces a lost one)",
    );
  }
  writeFields(io, [
    ["id", created.id],
    ["name", created.name],
    ["key", created.reporter_key],
  ]);
  writeNote(
    io,
    "the key is shown only now: keep it (e.g. GAUNTLET_REPORTER_KEY); `gauntlet reporter rotate-key` replaces a lost one",
  );
}

export function registerCommand(
  parent: Command,
  factory: Factory,
  run: (options: RegisterOptions, deps: Deps) => Promise<void> = runRegister,
): Command {
  return parent
    .command("register")
    .description("Register a reporter; prints its key once")
    .argument("<name>", "the reporter's name")
    .option("--description <text>", "what it writes")
    .option("--type <type>", "what it writes about, e.g. round-summary", "general")
    .option("--mode <mode>", "manual or live", "manual")
    .action(
      async (
        name: string,
        opts: { description?: string; type: string; mode: string },
        cmd: Command,
      ) => {
        const options = {
          name,
          description: opts.description ?? null,
          type: opts.type,
          mode: checkMode(opts.mode, "--mode") ?? "manual",
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}
